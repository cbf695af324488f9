import { CARD_MESSAGES } from '@dealerpass/domain/schemas/messages';
import { detectCardType, lastFour, type TCardType } from '@dealerpass/domain/validation/card';
import { normalizeExpiry } from '@dealerpass/domain/validation/expiry';
import { stripWhitespace } from '@dealerpass/domain/validation/text';
import { readMeta } from '../runtime-config.ts';
import { CardTokenizationError, type CardField } from './card-tokenization-error.ts';

/**
 * Card fields go from the browser straight to the payment gateway, never to our API (DECISIONS
 * R5, docs/decisions/010): this module sends them to whichever gateway the page names and hands
 * back only what our API may receive: a one-time token, the brand, the last four digits and the
 * expiry. It does not use lib/api-client.ts: the gateway is not our API and gets no CSRF token,
 * trace ids or cookies.
 */

/** As the server publishes it in the page's `dp-config` meta tag under `payments`. */
export type PaymentGatewayConfig =
  | { kind: 'sandbox'; tokenUrl: string }
  | { kind: 'authorize-net'; acceptJsUrl: string; apiLoginId: string; clientKey: string };

export const DEFAULT_PAYMENT_GATEWAY: PaymentGatewayConfig = {
  kind: 'sandbox',
  tokenUrl: '/sandbox-gateway/v1/tokens',
};

export interface CardInput {
  cardNumber: string;
  /** MMYY (a slash or spaces are allowed, as the field accepts them). */
  expiration: string;
  cvv: string;
}

/** The fields of the API requests that carry a card (ZPaymentTokenFieldsSchema). */
export interface TokenizedCard {
  paymentToken: string;
  cardBrand: TCardType;
  cardLast4: string;
  creditCardExpiration: string;
}

export { CardTokenizationError, type CardField } from './card-tokenization-error.ts';

/** The gateway the page names; the sandbox when it names none. */
export function paymentGatewayConfig(): PaymentGatewayConfig {
  try {
    const config = JSON.parse(readMeta('dp-config') ?? '{}') as { payments?: PaymentGatewayConfig };
    return config.payments ?? DEFAULT_PAYMENT_GATEWAY;
  } catch {
    return DEFAULT_PAYMENT_GATEWAY;
  }
}

export async function tokenizeCard(
  card: CardInput,
  options: { config?: PaymentGatewayConfig; fetch?: typeof fetch } = {},
): Promise<TokenizedCard> {
  const config = options.config ?? paymentGatewayConfig();
  const input = {
    cardNumber: stripWhitespace(card.cardNumber),
    expiration: normalizeExpiry(card.expiration),
    cvv: stripWhitespace(card.cvv),
  };
  return config.kind === 'authorize-net'
    ? tokenizeWithAcceptJs(config, input)
    : tokenizeWithSandbox(config, input, options.fetch ?? fetch);
}

const CARD_FIELDS: readonly string[] = [
  'creditCardNumber',
  'creditCardExpiration',
  'creditCardCode',
];

async function tokenizeWithSandbox(
  config: Extract<PaymentGatewayConfig, { kind: 'sandbox' }>,
  card: CardInput,
  doFetch: typeof fetch,
): Promise<TokenizedCard> {
  let response: Response;
  try {
    response = await doFetch(config.tokenUrl, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        creditCardNumber: card.cardNumber,
        creditCardExpiration: card.expiration,
        creditCardCode: card.cvv,
      }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new CardTokenizationError('NETWORK_ERROR', 'The payment gateway could not be reached.');
  }
  const body = (await response.json().catch(() => null)) as {
    data?: Partial<TokenizedCard>;
    message?: string;
    errors?: { source?: string; message?: string }[];
  } | null;

  if (response.status === 201 && body?.data?.paymentToken && body.data.cardBrand) {
    const { paymentToken, cardBrand, cardLast4 = '', creditCardExpiration = '' } = body.data;
    return { paymentToken, cardBrand, cardLast4, creditCardExpiration };
  }
  if (response.status === 400) {
    const errors = (body?.errors ?? [])
      .filter(
        (e): e is { source: CardField; message: string } =>
          CARD_FIELDS.includes(e.source ?? '') && typeof e.message === 'string',
      )
      .map(({ source, message }) => ({ source, message }));
    throw new CardTokenizationError('CARD_INVALID', CARD_MESSAGES.numberInvalid, errors);
  }
  if (response.status === 429) {
    throw new CardTokenizationError('RATE_LIMITED', body?.message ?? 'Too many requests.');
  }
  throw new CardTokenizationError(
    'GATEWAY_ERROR',
    `The payment gateway answered ${response.status}.`,
  );
}

/** Authorize.Net's Accept.js (https://developer.authorize.net/api/reference/features/acceptjs.html). */
export interface AcceptJs {
  dispatchData(secureData: AcceptSecureData, callback: (response: AcceptResponse) => void): void;
}

export interface AcceptSecureData {
  authData: { clientKey: string; apiLoginID: string };
  cardData: { cardNumber: string; month: string; year: string; cardCode: string };
}

export interface AcceptResponse {
  opaqueData?: { dataDescriptor: string; dataValue: string };
  messages: { resultCode: 'Ok' | 'Error'; message: { code: string; text: string }[] };
}

declare global {
  interface Window {
    Accept?: AcceptJs;
  }
}

/** Accept.js's card errors, in our fields' words (000 §5). */
const ACCEPT_FIELD_ERRORS: Record<string, { source: CardField; message: string }> = {
  E_WC_05: { source: 'creditCardNumber', message: CARD_MESSAGES.numberInvalid },
  E_WC_06: { source: 'creditCardExpiration', message: CARD_MESSAGES.expiryFormat },
  E_WC_07: { source: 'creditCardExpiration', message: CARD_MESSAGES.expiryFormat },
  E_WC_08: { source: 'creditCardExpiration', message: CARD_MESSAGES.expiryPast },
  E_WC_15: { source: 'creditCardCode', message: CARD_MESSAGES.cvvInvalid },
};

async function tokenizeWithAcceptJs(
  config: Extract<PaymentGatewayConfig, { kind: 'authorize-net' }>,
  card: CardInput,
): Promise<TokenizedCard> {
  const cardBrand = detectCardType(card.cardNumber);
  if (!cardBrand) {
    throw new CardTokenizationError('CARD_INVALID', CARD_MESSAGES.numberInvalid, [
      { source: 'creditCardNumber', message: CARD_MESSAGES.numberInvalid },
    ]);
  }
  const accept = await loadAcceptJs(config.acceptJsUrl);
  const response = await new Promise<AcceptResponse>((resolve) =>
    accept.dispatchData(
      {
        authData: { clientKey: config.clientKey, apiLoginID: config.apiLoginId },
        cardData: {
          cardNumber: card.cardNumber,
          month: card.expiration.slice(0, 2),
          year: `20${card.expiration.slice(2, 4)}`,
          cardCode: card.cvv,
        },
      },
      resolve,
    ),
  );
  if (response.messages.resultCode === 'Ok' && response.opaqueData?.dataValue) {
    return {
      paymentToken: response.opaqueData.dataValue,
      cardBrand,
      cardLast4: lastFour(card.cardNumber),
      creditCardExpiration: card.expiration,
    };
  }
  const messages = response.messages.message;
  const errors = messages.flatMap((m) => ACCEPT_FIELD_ERRORS[m.code] ?? []);
  if (errors.length > 0) {
    throw new CardTokenizationError('CARD_INVALID', CARD_MESSAGES.numberInvalid, errors);
  }
  const first = messages[0];
  throw new CardTokenizationError(
    'GATEWAY_ERROR',
    first ? `${first.code}: ${first.text}` : 'Accept.js gave no token.',
  );
}

let loading: Promise<AcceptJs> | null = null;

/** Adds Accept.js to the page once (with the page's CSP nonce) and resolves to its `Accept`. */
export function loadAcceptJs(url: string): Promise<AcceptJs> {
  if (window.Accept) return Promise.resolve(window.Accept);
  loading ??= new Promise<AcceptJs>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.charset = 'utf-8';
    const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce;
    if (nonce) script.nonce = nonce;
    const fail = () => {
      loading = null;
      script.remove();
      reject(new CardTokenizationError('NETWORK_ERROR', 'Accept.js could not be loaded.'));
    };
    script.addEventListener('load', () => (window.Accept ? resolve(window.Accept) : fail()));
    script.addEventListener('error', fail);
    document.head.append(script);
  });
  return loading;
}
