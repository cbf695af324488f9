import { useEffect, useRef, useState } from 'react';
import { PRICED_ITEMS, type TPricedItem } from '@dealerpass/domain/prices';
import { useQueryClient } from '@tanstack/react-query';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { getPricesQueryOptions, usePrices, type TStaffPrices } from '../api/get-prices.ts';
import { businessDateOf, dateTime, money } from '../components/format.ts';
import { ActionButton } from '../components/action-dialog.tsx';
import { ITEM_LABELS, PriceChangeForm, scheduledText } from '../components/price-change-form.tsx';
import { withdrawPrices } from '../api/withdraw-prices.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Empty, Section } from '../components/section.tsx';
import { useMayTake } from '../staff-member.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

type TPriceRow = TStaffPrices['prices'][number];

function label(item: string): string {
  return ITEM_LABELS[item as keyof typeof ITEM_LABELS] ?? item;
}

/** Each item's price in force now: its latest row that has taken effect (R11). */
function currentPrices(rows: readonly TPriceRow[], now: number): TPriceRow[] {
  const byItem = new Map<string, TPriceRow>();
  for (const row of rows) {
    const from = row.effectiveFrom ? Date.parse(row.effectiveFrom) : Number.NEGATIVE_INFINITY;
    if (from > now) continue;
    const known = byItem.get(row.item);
    const knownFrom = known?.effectiveFrom
      ? Date.parse(known.effectiveFrom)
      : Number.NEGATIVE_INFINITY;
    if (!known || from >= knownFrom) byItem.set(row.item, row);
  }
  // In the catalogue's order, as the price table is read everywhere else.
  const order = (item: string) => PRICED_ITEMS.indexOf(item as TPricedItem);
  return [...byItem.values()].sort((a, b) => order(a.item) - order(b.item));
}

function withdrawnText(effectiveFrom: string, notified: number): string {
  const told = notified === 1 ? '1 account was e-mailed' : `${notified} accounts were e-mailed`;
  return `The price change of ${businessDateOf(effectiveFrom)} was withdrawn; ${told}.`;
}

/** Prices (/admin/prices): what is charged now, the changes ahead, and (admins) a new change. */
export default function PricesPage() {
  useAdminTitle('Prices');
  const mayTake = useMayTake();
  const queryClient = useQueryClient();
  const query = usePrices();
  // The moment the page opened: which prices are "now" does not change while it is read.
  const [now] = useState(() => Date.now());
  const reload = () =>
    queryClient.invalidateQueries({ queryKey: getPricesQueryOptions().queryKey });
  // What the last scheduling or withdrawal did, as the server answered it (R11 amended). It takes
  // focus once the list is read again: the button that acted is gone by then.
  const [outcome, setOutcome] = useState<{ text: string; at: number } | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);
  const report = (text: string) =>
    void reload().finally(() => setOutcome({ text, at: Date.now() }));

  return (
    <div className="admin-page">
      <h1>Prices</h1>
      {outcome ? (
        <p
          key={outcome.at}
          ref={outcomeRef}
          tabIndex={-1}
          role="status"
          className="admin-outcome"
          data-testid="price-outcome"
        >
          {outcome.text}
        </p>
      ) : null}
      <QueryState query={query} loading="Loading prices…" failed="The prices could not be loaded.">
        {(data) => (
          <>
            <Section title="Scheduled changes">
              {data.scheduled.length === 0 ? (
                <Empty>No price change is scheduled.</Empty>
              ) : (
                data.scheduled.map((change) => (
                  <div key={change.effectiveFrom} className="admin-scheduled">
                    <div className="admin-scheduled__head">
                      <h3>From {businessDateOf(change.effectiveFrom)}</h3>
                      {mayTake('withdrawPrice') ? (
                        <ActionButton
                          spec={{
                            label: 'Withdraw',
                            title: `Withdraw the change of ${businessDateOf(change.effectiveFrom)}`,
                            description: (
                              <p>
                                These prices will not take effect. Every account told of the change
                                (
                                {change.noticesSent === 1
                                  ? '1 notice sent'
                                  : `${change.noticesSent} notices sent`}
                                ) is e-mailed that it is withdrawn.
                              </p>
                            ),
                            confirmLabel: 'Withdraw and e-mail',
                            danger: true,
                            done: `The price change of ${businessDateOf(change.effectiveFrom)} was withdrawn.`,
                          }}
                          run={async ({ requestKey, reason }) => {
                            const withdrawn = await withdrawPrices({
                              effectiveDate: change.effectiveDate,
                              reason: reason ?? '',
                              requestKey,
                            });
                            report(withdrawnText(change.effectiveFrom, withdrawn.notified));
                            return withdrawn;
                          }}
                        />
                      ) : null}
                    </div>
                    <p>
                      {change.accountsAffected === 1
                        ? '1 account is affected'
                        : `${change.accountsAffected} accounts are affected`}
                      ;{' '}
                      {change.noticesSent === 1
                        ? '1 notice was sent.'
                        : `${change.noticesSent} notices were sent.`}
                    </p>
                    <TableRegion label={`Prices from ${businessDateOf(change.effectiveFrom)}`}>
                      <table className="admin-table">
                        <thead>
                          <tr>
                            <th scope="col">Item</th>
                            <th scope="col">New price</th>
                            <th scope="col">Scheduled by</th>
                            <th scope="col">Scheduled</th>
                          </tr>
                        </thead>
                        <tbody>
                          {change.rows.map((row) => (
                            <tr key={row.item}>
                              <th scope="row">{label(row.item)}</th>
                              <td className="admin-amount">{money(row.cents)}</td>
                              <td>{row.scheduledBy}</td>
                              <td>{dateTime(row.scheduledAt)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </TableRegion>
                  </div>
                ))
              )}
            </Section>
            <Section title="Prices in force now">
              <TableRegion label="Prices in force now">
                <table className="admin-table">
                  <thead>
                    <tr>
                      <th scope="col">Item</th>
                      <th scope="col">Monthly price</th>
                      <th scope="col">Since</th>
                    </tr>
                  </thead>
                  <tbody>
                    {currentPrices(data.prices, now).map((row) => (
                      <tr key={row.item}>
                        <th scope="row">{label(row.item)}</th>
                        <td className="admin-amount">{money(row.cents)}</td>
                        <td>{row.effectiveFrom ? businessDateOf(row.effectiveFrom) : 'Always'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
            </Section>
          </>
        )}
      </QueryState>
      {mayTake('schedulePrice') ? (
        <section className="admin-section card">
          <PriceChangeForm
            onScheduled={(result) => report(scheduledText(result.effectiveDate, result.notified))}
          />
        </section>
      ) : null}
    </div>
  );
}
