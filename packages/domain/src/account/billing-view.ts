/**
 * What the billing page shows for an account (000 §2, §4; DECISIONS R4): the card area, the
 * form's mode and buttons, and which summary figures appear.
 */
import type { IAccountFlags } from './status.ts';

export type TCardAreaView = 'addPrompt' | 'cardSummary' | 'form' | 'pendingCancelNotice';
export type TBillingFormMode = 'ADD' | 'UPDATE';

export interface ICardArea {
  view: TCardAreaView;
  formMode: TBillingFormMode;
  /** 000 §4: inactive accounts see the reactivation message with the previous card. */
  showInactiveMessage: boolean;
  submitLabel: 'Save' | 'Update' | 'Reactivate Account';
  showCancelButton: boolean;
  /** What submitting does (000 §4: inactive reactivates, otherwise the payment profile). */
  submitAction: 'reactivate' | 'updatePaymentProfile';
}

export interface ICardAreaInput {
  flags: IAccountFlags;
  hasCard: boolean;
  /** The user opened the form (ADD NEW CARD or EDIT). */
  editing: boolean;
}

/** 000 §4 Billing card area. */
export function cardArea({ flags, hasCard, editing }: ICardAreaInput): ICardArea {
  const inactiveOnly = flags.inactive && !flags.pendingReactivation;
  const formMode: TBillingFormMode =
    hasCard && !flags.pendingCancel && (!flags.inactive || flags.pendingReactivation)
      ? 'UPDATE'
      : 'ADD';
  let view: TCardAreaView;
  if (flags.pendingCancel) view = 'pendingCancelNotice';
  else if (editing || inactiveOnly) view = 'form';
  else if (!hasCard) view = 'addPrompt';
  else view = 'cardSummary';
  return {
    view,
    formMode,
    showInactiveMessage: inactiveOnly,
    submitLabel:
      inactiveOnly || flags.pendingCancel
        ? 'Reactivate Account'
        : formMode === 'UPDATE'
          ? 'Update'
          : 'Save',
    showCancelButton: !inactiveOnly,
    submitAction: flags.inactive || flags.pendingCancel ? 'reactivate' : 'updatePaymentProfile',
  };
}

export interface IBillingSummaryView {
  showNextBillingCycle: boolean;
  showCurrentBalance: boolean;
  /** 001 §4: validating payment shows the "not fully operational" message (R4). */
  showNotOperational: boolean;
}

/** R4: inactive accounts hide Next Billing Cycle; complimentary accounts hide Current Balance. */
export function billingSummaryView(flags: IAccountFlags): IBillingSummaryView {
  return {
    showNextBillingCycle: !flags.inactive,
    showCurrentBalance: !flags.complimentary,
    showNotOperational: flags.validatingPayment,
  };
}

export type TSubscriptionsPageView = 'cancelLink' | 'cancelled' | 'reactivationGuidance';

/** 000 §4 Subscriptions page. */
export function subscriptionsPageView(flags: IAccountFlags): TSubscriptionsPageView {
  if (flags.inactive) return 'reactivationGuidance';
  if (flags.pendingCancel) return 'cancelled';
  return 'cancelLink';
}
