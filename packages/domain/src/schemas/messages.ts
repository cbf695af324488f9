/** Field texts that several schemas share (000 §5, 001 §5). */

export const ZIP_MESSAGE = 'Valid postal code is required.';
export const BILLING_ZIP_MESSAGE = 'Valid billing postal code is required.';

export const CARD_MESSAGES = {
  numberRequired: 'Credit card number is required.',
  requestKeyInvalid: 'The request is not valid. Please reload the page.',
  numberInvalid: 'Credit card not valid.',
  expiryRequired: 'Expiration date is required.',
  expiryFormat: 'Expiration date must be four digits (MM/YY).',
  expiryPast: 'Expiration date must be a future date.',
  cvvRequired: 'CVV is required.',
  cvvRequiredWithCard: 'CVV is required when credit card number is present.',
  cvvTooShort: 'CVV must be at least 3 characters.',
  cvvInvalid: 'CVV must be 3 or 4 digits.',
} as const;

/** 000 §5 billing form labels, in the order the form shows them. */
export const BILLING_LABELS = {
  billingFirstName: 'Billing first name',
  billingLastName: 'Billing last name',
  billingCountry: 'Billing country',
  billingAddress1: 'Billing address',
  billingCity: 'Billing city',
  billingState: 'Billing state',
  billingZip: 'Billing postal code',
} as const;
