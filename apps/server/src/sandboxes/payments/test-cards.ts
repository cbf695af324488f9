import type { TCardType } from '@dealerpass/domain/validation/card';
import { stripWhitespace } from '@dealerpass/domain/validation/text';

/** What a sandbox card does when it is charged (docs/decisions/010-payment-gateways.md). */
export type SandboxBehaviour =
  'approved' | 'declined' | 'insufficient_funds' | 'expired_card' | 'processor_error';

export interface SandboxTestCard {
  number: string;
  brand: TCardType;
  behaviour: SandboxBehaviour;
}

/**
 * The documented test cards. Every one passes Luhn and the brand rules; any other valid number
 * behaves as `approved`. Use any expiry month that has not ended and any 3- or 4-digit CVV.
 */
export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = [
  { number: '4111111111111111', brand: 'visa', behaviour: 'approved' },
  { number: '4242424242424242', brand: 'visa', behaviour: 'approved' },
  { number: '5555555555554444', brand: 'mastercard', behaviour: 'approved' },
  { number: '2223003122003222', brand: 'mastercard', behaviour: 'approved' },
  { number: '378282246310005', brand: 'amex', behaviour: 'approved' },
  { number: '6011111111111117', brand: 'discover', behaviour: 'approved' },
  { number: '4000000000000002', brand: 'visa', behaviour: 'declined' },
  { number: '5105105105105100', brand: 'mastercard', behaviour: 'declined' },
  { number: '4000000000009995', brand: 'visa', behaviour: 'insufficient_funds' },
  { number: '4000000000000069', brand: 'visa', behaviour: 'expired_card' },
  { number: '4000000000000119', brand: 'visa', behaviour: 'processor_error' },
];

const BY_NUMBER = new Map(SANDBOX_TEST_CARDS.map((card) => [card.number, card.behaviour]));

export function sandboxBehaviourOf(cardNumber: string): SandboxBehaviour {
  return BY_NUMBER.get(stripWhitespace(cardNumber)) ?? 'approved';
}
