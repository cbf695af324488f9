import { accountFlags } from '@dealerpass/domain/account/status';
import type { TRetryRenewalResult } from '@dealerpass/domain/admin/account-actions';
import {
  isVerificationPending,
  type TStaffAccountDetail,
} from '@dealerpass/domain/admin/console-views';
import { takeAccountAction, type TAccountActionPath } from '../api/take-account-action.ts';
import { useMayTake } from '../staff-member.tsx';
import {
  ActionButton,
  type IActionDialogSpec,
  type IActionInput,
  type IActionOutcome,
} from './action-dialog.tsx';
import { AdjustSubscriptionButton } from './adjust-subscription.tsx';
import { money } from './format.ts';

const BALANCE_KINDS = [
  { value: 'credit', label: 'Credit (lowers what the dealer owes)' },
  { value: 'charge', label: 'Charge (raises what the dealer owes)' },
] as const;

interface IAction {
  key: string;
  path: TAccountActionPath;
  spec: IActionDialogSpec;
  body?: (input: IActionInput) => object;
}

/**
 * The account's actions for this member's role (R12: the domain's table decides, as on the
 * server), each behind a confirmation with its reason and its own request key.
 */
export function AccountActions({
  detail,
  onChanged,
}: {
  detail: TStaffAccountDetail;
  onChanged: (outcome: IActionOutcome) => void;
}) {
  const mayTake = useMayTake();
  const userId = detail.profile.userId;
  const flags = accountFlags(detail.status);
  const name = `${detail.profile.firstName} ${detail.profile.lastName}`.trim();
  // What the server retries (retry-renewal.ts): a validating-payment account with a card on file.
  const retryable = flags.validatingPayment && detail.profile.card !== null;

  const actions: IAction[] = [];
  if (mayTake('resendVerification') && isVerificationPending(detail.profile.identity)) {
    actions.push({
      key: 'resend',
      path: 'resend-verification',
      spec: {
        label: 'Resend verification e-mail',
        description: (
          <p>
            {detail.profile.email} gets a new verification e-mail with a link to set a password.
            Earlier links stop working.
          </p>
        ),
        confirmLabel: 'Send',
        reasonOptional: true,
        done: 'The verification e-mail was sent.',
      },
    });
  }
  if (mayTake('endSessions')) {
    actions.push({
      key: 'end-sessions',
      path: 'end-sessions',
      spec: {
        label: 'End sessions',
        title: 'End every session of this account',
        description: <p>{name || 'The dealer'} is signed out everywhere at once.</p>,
        confirmLabel: 'End sessions',
        danger: true,
        reasonOptional: true,
        done: 'The sessions were ended.',
      },
    });
  }
  if (flags.blocked ? mayTake('unblock') : mayTake('block')) {
    actions.push(
      flags.blocked
        ? {
            key: 'unblock',
            path: 'unblock',
            spec: {
              label: 'Unblock',
              title: 'Unblock this account',
              description: <p>The dealer can sign in and use the account again.</p>,
              confirmLabel: 'Unblock',
              done: 'The account was unblocked.',
            },
          }
        : {
            key: 'block',
            path: 'block',
            spec: {
              label: 'Block',
              title: 'Block this account',
              description: (
                <p>The dealer's sessions end and the account cannot be used until unblocked.</p>
              ),
              confirmLabel: 'Block',
              danger: true,
              done: 'The account was blocked.',
            },
          },
    );
  }
  if (mayTake(flags.complimentary ? 'complimentaryOff' : 'complimentaryOn')) {
    const on = !flags.complimentary;
    actions.push({
      key: 'complimentary',
      path: 'complimentary',
      spec: {
        label: on ? 'Make complimentary' : 'End complimentary',
        description: on ? (
          <p>The account is no longer charged, and its balance is hidden from the dealer.</p>
        ) : (
          <p>The account is charged again from its next bill date.</p>
        ),
        confirmLabel: on ? 'Make complimentary' : 'End complimentary',
        reasonOptional: true,
        done: on ? 'The account is complimentary.' : 'The account is no longer complimentary.',
      },
      body: (input) => ({ ...input, on }),
    });
  }
  if (mayTake('retryRenewal') && retryable) {
    actions.push({
      key: 'retry',
      path: 'retry-renewal',
      spec: {
        label: 'Retry renewal now',
        description: (
          <p>
            The failed renewal is charged again now, on the card on file. This is one attempt more:
            if the card declines, the scheduled retries go on as planned.
          </p>
        ),
        confirmLabel: 'Retry now',
        reasonOptional: true,
        done: (result) => retryOutcome(result as TRetryRenewalResult),
      },
    });
  }
  if (mayTake('balanceAdjustment')) {
    actions.push({
      key: 'balance',
      path: 'balance-adjustments',
      spec: {
        label: 'Adjust balance',
        title: 'Credit or charge the balance',
        description: <p>The balance is now {money(detail.balance.cents)}.</p>,
        confirmLabel: 'Adjust balance',
        choice: { label: 'Adjustment', options: BALANCE_KINDS },
        amount: { label: 'Amount' },
        done: 'The balance was adjusted.',
      },
      body: ({ choice, ...input }) => ({ ...input, kind: choice }),
    });
  }

  // Issue 28's "Adjust": the dealer's change (R10) on their behalf, with its own dialog.
  const adjustable = mayTake('adjustSubscription') && detail.subscription !== null;
  if (actions.length === 0 && !adjustable) return null;
  return (
    <div className="admin-actions" role="group" aria-label="Account actions">
      {adjustable ? <AdjustSubscriptionButton detail={detail} onDone={onChanged} /> : null}
      {actions.map((action) => (
        <ActionButton
          key={action.key}
          spec={action.spec}
          run={(input) =>
            takeAccountAction(userId, action.path, action.body ? action.body(input) : input)
          }
          onDone={onChanged}
        />
      ))}
    </div>
  );
}

/**
 * What the gateway made of a retried renewal (R16), as the console says it: paid is the only
 * success; a decline names the gateway's reason and says the schedule is unchanged.
 */
export function retryOutcome(result: TRetryRenewalResult): IActionOutcome {
  if (result.outcome === 'paid') {
    return { tone: 'success', text: 'The renewal was paid. The account is active again.' };
  }
  if (result.outcome === 'declined') {
    const reason = result.declineReason ? ` (${result.declineReason.replaceAll('_', ' ')})` : '';
    return {
      tone: 'declined',
      text: `The card was declined${reason}. The account stays in validating payment; its scheduled retries are unchanged.`,
    };
  }
  return {
    tone: 'pending',
    text: 'The gateway did not answer. The charge is sent again at the next scheduled retry, and is taken once at most.',
  };
}
