// Apart from tokenize-card.ts so that forms can recognise the error without loading the
// tokenization code, which they import only when a card is submitted (docs/decisions/020).

export type CardField = 'creditCardNumber' | 'creditCardExpiration' | 'creditCardCode';

/**
 * Why no token came back. CARD_INVALID carries each field's message under the card form's field
 * names; the others are for the form's general error.
 */
export class CardTokenizationError extends Error {
  override name = 'CardTokenizationError';
  readonly code: 'CARD_INVALID' | 'RATE_LIMITED' | 'NETWORK_ERROR' | 'GATEWAY_ERROR';
  readonly errors: { source: CardField; message: string }[];

  constructor(
    code: CardTokenizationError['code'],
    message: string,
    errors: CardTokenizationError['errors'] = [],
  ) {
    super(message);
    this.code = code;
    this.errors = errors;
  }
}
