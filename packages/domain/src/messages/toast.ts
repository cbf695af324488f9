/**
 * The toast texts (000 §8–9) and the contact confirmation (001 §7), apart from the error
 * catalogue in `../messages.ts`: the toasts are in the web app's first load, and importing them
 * from here keeps the whole catalogue out of it (docs/decisions/006).
 */

/** 000 §8–9. */
export const TOAST = {
  successTitle: 'SUCCESS',
  success: 'Changes have been saved.',
  errorTitle: 'ERROR',
  error: 'Please try again.',
  alert: 'Unable to process request.',
  durationMs: 4000,
} as const;

/** 001 §7. */
export const CONTACT_SUBMITTED = 'Contact Us Form Submitted.';
