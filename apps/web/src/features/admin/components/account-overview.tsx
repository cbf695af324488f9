import { paidWithText } from '@dealerpass/domain/billing/receipt-text';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { businessDate, dateTime, money, yesNo } from './format.ts';
import { Empty, Facts, Section } from './section.tsx';
import { StatusLabel, statusText } from './status-label.tsx';

type TDetail = TStaffAccountDetail;

/** The DealerPass ID as support needs it on a call: linked, and whether sign-in is set up. */
function identityText(identity: TDetail['profile']['identity']): string {
  if (!identity) return 'None (legacy sign-in)';
  if (!identity.passwordSet) return 'Linked; no password set yet';
  if (!identity.emailVerified) return 'Linked; e-mail not verified';
  return 'Linked; password set, e-mail verified';
}

/** Who the dealer is. R7/R12: the card is brand, last four and expiry; secrets are yes or no. */
export function ProfileSection({ profile }: { profile: TDetail['profile'] }) {
  const address = [
    profile.address1,
    profile.address2,
    `${profile.city}, ${profile.state} ${profile.zip}`,
    profile.country,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <Section title="Profile">
      <Facts
        items={[
          ['Name', `${profile.firstName} ${profile.lastName}`],
          ['Dealership', profile.dealership],
          ['E-mail', profile.email],
          ['Alternate e-mail', profile.altEmail],
          ['Phone', profile.phone],
          ['Alternate phone', profile.altPhone],
          ['Address', address],
          ['DealerPass user id', <span className="admin-mono">{profile.dealerpassUserId}</span>],
          ['DealerPass ID', identityText(profile.identity)],
          ['Legacy username', profile.legacyUsername],
          [
            'Card',
            profile.card
              ? `${paidWithText(profile.card.brand, profile.card.last4)}${
                  profile.card.expiration ? `, expires ${profile.card.expiration}` : ''
                }`
              : 'No card on file',
          ],
          ['Created', dateTime(profile.createdAt)],
        ]}
      />
    </Section>
  );
}

export function StatusSection({ status }: { status: TDetail['status'] }) {
  return (
    <Section title="Status and history">
      <Facts
        items={[
          [
            'Status',
            <StatusLabel status={status.accountStatus} details={status.accountStatusDetails} />,
          ],
          ['Next bill date', businessDate(status.nextBillDate)],
          // Decision 058: a pending cancellation takes effect at a paid year's end.
          ...(status.cancellationTakesEffect
            ? [
                [
                  'Cancellation takes effect',
                  businessDate(status.cancellationTakesEffect),
                ] satisfies [string, string],
              ]
            : []),
        ]}
      />
      {status.history.length === 0 ? (
        <Empty>No status changes yet.</Empty>
      ) : (
        <TableRegion label="Status history">
          <table className="admin-table">
            <caption>Status history, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {status.history.map((entry, index) => (
                <tr key={`${entry.at}-${index}`}>
                  <td>{dateTime(entry.at)}</td>
                  <td>{entry.event}</td>
                  <td>{entry.fromStatus ? statusText(entry.fromStatus) : '—'}</td>
                  <td>{entry.toStatus ? statusText(entry.toStatus) : '—'}</td>
                  <td>{entry.actor}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

function codes(list: readonly string[]): string {
  return list.length ? list.join(', ') : 'none';
}

export function SubscriptionSection({
  subscription,
  changes,
}: {
  subscription: TDetail['subscription'];
  changes: TDetail['changes'];
}) {
  return (
    <Section title="Subscriptions and pending changes">
      {subscription ? (
        <Facts
          items={[
            ['Subscribed', codes(subscription.codes)],
            ['Extras added automatically', codes(subscription.autoExtras)],
            [
              'Pending removals',
              subscription.pendingRemovals.length
                ? `${codes(subscription.pendingRemovals)} (from ${businessDate(
                    subscription.pendingRemovalsAt ?? subscription.currentPeriodEnd,
                  )})`
                : 'none',
            ],
            [
              'Current period',
              `${businessDate(subscription.currentPeriodStart)} to ${businessDate(
                subscription.currentPeriodEnd,
              )}`,
            ],
            [
              'Scheduled renewal attempts',
              `${subscription.scheduledAttempts.made} made, ${subscription.scheduledAttempts.left} left`,
            ],
            ['Next scheduled retry', dateTime(subscription.nextScheduledRetryAt)],
            ['Cancel requested', dateTime(subscription.cancelRequestedAt)],
          ]}
        />
      ) : (
        <Empty>No subscription.</Empty>
      )}
      <h3>Changes</h3>
      {changes.length === 0 ? (
        <Empty>No subscription changes.</Empty>
      ) : (
        <TableRegion label="Subscription changes">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Requested</th>
                <th scope="col">Status</th>
                <th scope="col">Before</th>
                <th scope="col">Requested items</th>
                <th scope="col">Charge</th>
                <th scope="col">Decline</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((change) => (
                <tr key={change.id}>
                  <td>{dateTime(change.createdAt)}</td>
                  <td>{change.status}</td>
                  <td>{codes(change.codesBefore)}</td>
                  <td>{codes(change.codesRequested)}</td>
                  <td className="admin-amount">{money(change.amountCents)}</td>
                  <td className="admin-wrap">{change.declineReason ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

export function IntegrationsSection({ integrations }: { integrations: TDetail['integrations'] }) {
  return (
    <Section title="Integrations">
      <Facts
        items={[
          [
            'Carfax',
            integrations.carfax.connected
              ? `Connected${integrations.carfax.connectedAt ? ` since ${dateTime(integrations.carfax.connectedAt)}` : ''}`
              : 'Not connected',
          ],
          ['AutoCheck id', integrations.autoCheck.autoCheckId],
          ['AutoCheck enabled', yesNo(integrations.autoCheck.enabled)],
          ['AutoCheck auto purchase', yesNo(integrations.autoCheck.autoPurchase)],
          ['AutoCheck password set', yesNo(integrations.autoCheck.passwordSet)],
        ]}
      />
    </Section>
  );
}
