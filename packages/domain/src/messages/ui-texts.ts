/**
 * Screen texts that are not error codes, verbatim where the specification quotes them
 * (DECISIONS R1 applied). Texts the specification only describes are marked so.
 */
import { fillPlaceholders } from '../messages.ts';
import type { IMessageVars } from '../messages.ts';
import { formatCurrency } from '../money.ts';
import { formatCalendarDate, parseIsoDate } from '../time/calendar-date.ts';

/** 000 §4 billing form: the confirmation before editing billing details in UPDATE mode. */
export const EDIT_PAYMENT_DIALOG = {
  title: 'EDIT PAYMENT INFO',
  question: 'Are you sure you want to edit this information?',
  detail: 'Editing billing details will require you to re-enter your credit card information.',
  confirm: 'CONTINUE',
  cancel: 'CANCEL',
} as const;

/** 000 §2 billing page labels. */
export const BILLING_TEXTS = {
  sameAddress: 'My account and billing details are the same',
  addNewCard: 'ADD NEW CARD',
  edit: 'EDIT',
  remove: 'REMOVE',
  reactivate: 'REACTIVATE',
  downloadYear: 'Download Year',
  removeCardQuestion: 'Are you sure you want to remove this card?',
} as const;

/** Ours (R14, issue 28): annual payment by check on Billing Details, quoted from the issue. */
export const ANNUAL_BILLING_TEXTS = {
  heading: 'Annual Billing',
  offer: 'Pay annually by check and save 10%',
  downloadInvoice: 'Download invoice',
  keepMonthly: 'Keep paying monthly by card',
} as const;

/** The Billing Summary of an account on an annual period (R14): paid through its last day. */
export function annualPeriodSummary(paidThrough: string): string {
  return `Billed annually by check, paid through ${paidThrough}`;
}

/** 000 §4: described, not quoted. */
export function pendingCancelNotice(nextBillDate: string): string {
  return `Your account has been cancelled and will not incur any further charges. It will become inactive after ${nextBillDate}.`;
}

/**
 * The pending-cancel notice of an account as the API returns it (decision 058): it becomes
 * inactive on the day its cancellation takes effect, which is later than its next bill date only
 * when a paid year has not begun yet; then monthly card billing goes on to the year's start.
 */
export function pendingCancelNoticeOf(user: { readonly [field: string]: unknown }): string {
  const dateOf = (value: unknown) =>
    formatCalendarDate(typeof value === 'string' ? parseIsoDate(value) : null);
  const next = dateOf(user.nextBillDate);
  const takesEffect =
    typeof user.cancellationTakesEffect === 'string' ? dateOf(user.cancellationTakesEffect) : next;
  if (takesEffect === next) return pendingCancelNotice(next);
  return `Your account has been cancelled. Monthly card billing goes on until your year paid by check begins; nothing is charged after that. It will become inactive after ${takesEffect}.`;
}

/** 000 §4: described, not quoted. */
export function inactiveReactivationMessage(card: {
  type: string;
  lastDigits: string;
  expiration: string;
}): string {
  return `Your account is no longer active. To reactivate it with your previous subscription selections, please re-enter your billing details. Previous card: ${card.type} ending in ${card.lastDigits}, expires ${card.expiration}.`;
}

/** 001 §4 (R4: shown while validating payment). */
export function notOperationalMessage(vars?: IMessageVars): string {
  return fillPlaceholders(
    'Your account is not fully operational. Please update your credit card information or call customer support toll free at {phone}.',
    vars,
  );
}

/** 000 §4 subscriptions page: described, not quoted. */
export const SUBSCRIPTIONS_TEXTS = {
  cancelLink: 'Cancel Subscription',
  confirmCancel: 'Confirm Cancel',
  cancelled: 'Your subscription has been cancelled.',
  reactivationGuidance:
    'Your account is no longer active. To reactivate it, please update your billing details on the Billing Details page.',
} as const;

/** Ours (R10): the change page and the pending removals on the Subscriptions page. */
export const CHANGE_TEXTS = {
  link: 'Change subscriptions',
  heading: 'Change subscriptions',
  legend: 'Your subscriptions',
  removalsOnly:
    'Your payment is being validated: you can remove subscriptions now and add them once your payment has gone through.',
  confirm: 'Confirm change',
  confirming: 'Confirming…',
  noChange: 'Tick or untick a subscription to see what changes.',
  previewHeading: 'What changes',
  chargeToday: 'Charged today',
  nextBill: 'Next bill',
  pendingHeading: 'Removals waiting for the next bill date',
  pendingNote: 'removal pending',
  undo: 'Undo',
  applied: 'Your subscriptions have been changed.',
  previewFailed: 'The preview could not be loaded.',
  retry: 'Try again',
  additionsHeading: 'Added now',
  includedFree: 'included free',
  // R10: an addition is charged at once, to the card on file.
  cardRequired: 'Adding a subscription is charged today, and there is no card on file.',
  addCardLink: 'Add a card in Billing Details',
  // R14 (decision 052): an open annual invoice follows the selection of its year.
  annualInvoiceHeading: 'Annual invoice',
  // R10: a pending-cancel account reactivates first, on Billing Details (REACTIVATE).
  pendingCancel:
    'Your subscription has been cancelled. To change your subscriptions, reactivate your account first.',
  reactivateLink: 'Reactivate in Billing Details',
  // R4: a complimentary account's subscriptions are set by Customer Support.
  complimentary:
    'Your account is complimentary, so its subscriptions are changed by Customer Support. Please call {phone}.',
  // After a 409 CHANGE_SELECTION_STALE: the page shows the account's selection as it is now.
  reviewHeading: 'Please review your change',
} as const;

/** '$65.00/mo', or 'included free' for an extra two paid items make free (R3). */
export function monthlyPriceText(cents: number, free: boolean): string {
  return free ? CHANGE_TEXTS.includedFree : `${formatCurrency(cents)}/mo`;
}

/** The change page of a complimentary account: call Customer Support at the configured phone (R1). */
export function complimentaryChangeText(vars?: IMessageVars): string {
  return fillPlaceholders(CHANGE_TEXTS.complimentary, vars);
}

/** 'Charged today: $33.55 (16 of 31 days left in this period)' (R10). */
export function chargeTodayText(amount: string, daysLeft: number, daysInPeriod: number): string {
  return `${amount} (${daysLeft} of ${daysInPeriod} days left in this period)`;
}

/** 'Removed on Apr 10, 2026: Kelley Blue Book, …' */
export function pendingRemovalsText(date: string, names: readonly string[]): string {
  return `Removed on ${date}: ${names.join(', ')}`;
}

/** 000 §8: the error panel for configuration and token failures. */
export function errorPanel(message: string, vars?: IMessageVars): { title: string; body: string } {
  return {
    title: 'An error has occurred.',
    body: `${message} ${fillPlaceholders('Please contact Customer Support at {phone}.', vars)}`,
  };
}

/** 001 §2 expired snapshot link. */
export const SNAPSHOT_EXPIRED = {
  heading: 'SNAPSHOT LINK EXPIRED',
  message:
    'This link has expired and can no longer be viewed. Please request a new link from the original sender.',
} as const;

/** 001 §2 sign-up confirmation. */
export const SIGNUP_CONFIRMATION = {
  heading: 'Verification email sent.',
  instruction: (email: string) =>
    `Please click the verification link in the email we sent to ${email}.`,
  instructionNoEmail: 'Please click the verification link in the email we sent you.',
  // Ours (R6): setting the password signs the user in; there is no second sign-in.
  linkNote: 'The link lets you set your password, and signs you in to your account.',
  close: 'Close',
  closeTo: '/app/login',
} as const;

/** 001 §2 sign-up stepper (pages 3 and 4). */
export const SIGNUP_STEPS = ['Subscriptions', 'Dealership Info', 'Payment'] as const;

/** 001 §4: the final submit waits this long before sending. */
export const SIGNUP_SUBMIT_DELAY_MS = 300;

/** 001 §7 HTTP helper. */
export const ENDPOINT_REQUIRED_MESSAGE = 'You must provide an endpoint to create an HTTP request';

/** 001 §2, §9: copyright years start at 2008. */
export const COPYRIGHT_START_YEAR = 2008;

export function copyrightYears(currentYear: number): string {
  return currentYear > COPYRIGHT_START_YEAR
    ? `${COPYRIGHT_START_YEAR}–${currentYear}`
    : String(COPYRIGHT_START_YEAR);
}

/** R14 (decision 052): what a change does to the open annual invoice, said before it is confirmed. */
export function annualInvoiceChangeText(number: string, total: string, newTotal: string): string {
  return `Invoice ${number} (${total}) is voided, and a new invoice for ${newTotal} is issued and e-mailed in its place.`;
}
