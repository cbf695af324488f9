import { useQueryClient } from '@tanstack/react-query';
import type { TPromotionStatus } from '@dealerpass/domain/billing/promotion';
import type { TStaffPromotion } from '@dealerpass/domain/admin/business-views';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { disablePromotion } from '../api/disable-promotion.ts';
import { getPromotionsQueryOptions, usePromotions } from '../api/get-promotions.ts';
import { ActionButton } from '../components/action-dialog.tsx';
import { useActionOutcome } from '../components/action-outcome.tsx';
import { dateTime, money, yesNo } from '../components/format.ts';
import { KIND_LABELS, PromotionForm } from '../components/promotion-form.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Section } from '../components/section.tsx';
import { useMayTake } from '../staff-member.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

/** The console's words for the domain's promotionStatus. */
const PROMOTION_STATUS_LABELS: Record<TPromotionStatus, string> = {
  active: 'Active',
  expired: 'Expired',
  'used up': 'Used up',
  disabled: 'Disabled',
};

function valueText(promotion: TStaffPromotion): string {
  if (promotion.kind === 'percent_off') return `${promotion.value}% off`;
  if (promotion.kind === 'amount_off') return `${money(promotion.value)} off`;
  return promotion.value === 1 ? '1 free month' : `${promotion.value} free months`;
}

/** Promotions (/admin/promotions): every code with its redemptions; billing creates and disables. */
export default function PromotionsPage() {
  useAdminTitle('Promotions');
  const mayTake = useMayTake();
  const queryClient = useQueryClient();
  const query = usePromotions();
  const outcome = useActionOutcome();
  const reload = () =>
    void queryClient.invalidateQueries({ queryKey: getPromotionsQueryOptions().queryKey });

  return (
    <div className="admin-page">
      <h1>Promotions</h1>
      {outcome.message}
      <Section title="Promotion codes">
        <QueryState
          query={query}
          loading="Loading promotion codes…"
          failed="The promotion codes could not be loaded."
          empty="There are no promotion codes yet."
          isEmpty={(rows) => rows.length === 0}
        >
          {(rows) => (
            <TableRegion label="Promotion codes">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Code</th>
                    <th scope="col">Status</th>
                    <th scope="col">Offer</th>
                    <th scope="col">Redemptions</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Card needed</th>
                    <th scope="col">Created by</th>
                    <th scope="col">Recent redemptions</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((promotion) => (
                    <tr key={promotion.code} data-testid={`promotion-${promotion.code}`}>
                      <th scope="row" className="admin-mono">
                        {promotion.code}
                      </th>
                      {/* The status and the way to change it first: at 1280 px the
                          row's other columns may scroll, this one never does. */}
                      <td>
                        <span className="admin-block">
                          {PROMOTION_STATUS_LABELS[promotion.status]}
                          {promotion.status === 'disabled' && promotion.disabledAt
                            ? ` ${dateTime(promotion.disabledAt)}`
                            : ''}
                        </span>
                        {mayTake('disablePromotion') && promotion.status !== 'disabled' ? (
                          <ActionButton
                            spec={{
                              label: 'Disable',
                              title: `Disable ${promotion.code}`,
                              description: (
                                <p>
                                  Sign-ups can no longer use {promotion.code}. Its redemptions stay
                                  as they are.
                                </p>
                              ),
                              confirmLabel: 'Disable',
                              danger: true,
                              done: `${promotion.code} was disabled.`,
                            }}
                            run={({ requestKey, reason }) =>
                              disablePromotion(promotion.code, {
                                requestKey,
                                reason: reason ?? '',
                              })
                            }
                            onDone={(done) => {
                              outcome.report(done);
                              reload();
                            }}
                          />
                        ) : null}
                      </td>
                      <td className="admin-wrap">
                        {valueText(promotion)}
                        <span className="admin-muted admin-block">
                          {KIND_LABELS[promotion.kind]}
                        </span>
                        {promotion.description ? (
                          <span className="admin-muted admin-block">{promotion.description}</span>
                        ) : null}
                      </td>
                      <td>
                        {promotion.redemptionCount}
                        {promotion.maxRedemptions !== null ? ` of ${promotion.maxRedemptions}` : ''}
                      </td>
                      <td>{promotion.expiresAt ? dateTime(promotion.expiresAt) : 'Never'}</td>
                      <td>{yesNo(promotion.requiresCard)}</td>
                      <td>{promotion.createdBy}</td>
                      <td className="admin-wrap">
                        {promotion.recentRedemptions.length === 0 ? (
                          'None'
                        ) : (
                          <ul className="admin-plain-list">
                            {promotion.recentRedemptions.map((redemption, index) => (
                              <li key={`${redemption.redeemedAt}-${index}`}>
                                {redemption.email}, {money(redemption.discountCents)} off,{' '}
                                {dateTime(redemption.redeemedAt)}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
        </QueryState>
      </Section>
      {mayTake('createPromotion') ? (
        <section className="admin-section card">
          <PromotionForm onCreated={reload} />
        </section>
      ) : null}
    </div>
  );
}
