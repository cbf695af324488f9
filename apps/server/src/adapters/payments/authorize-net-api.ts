import { PaymentGatewayError } from './payment-gateway.ts';
import type { AuthorizeNetConfig } from './payments-config.ts';

/**
 * Authorize.Net's JSON API: every request is one POST of `{ "<name>Request": { ... } }` to one
 * endpoint, with merchantAuthentication first (the API checks element order, as its XML schema
 * does). Answers start with a UTF-8 byte-order mark and carry `messages.resultCode` Ok or Error.
 */

export interface AnetMessage {
  code: string;
  text: string;
}

export interface AnetResponse {
  refId?: string;
  messages: { resultCode: 'Ok' | 'Error'; message: AnetMessage[] };
}

export interface AnetTransactionResponse {
  /** 1 approved, 2 declined, 3 error, 4 held for review. */
  responseCode: string;
  transId?: string;
  refTransID?: string;
  accountNumber?: string;
  accountType?: string;
  messages?: { code: string; description: string }[];
  errors?: { errorCode: string; errorText: string }[];
}

export interface AnetCreditCard {
  /** Masked: 'XXXX1111'. */
  cardNumber: string;
  /** 'XXXX', or 'YYYY-MM' when asked unmasked. */
  expirationDate: string;
  cardType?: string;
}

export interface AnetTransactionDetails {
  transId: string;
  transactionType: string;
  transactionStatus: string;
  responseCode: number | string;
  responseReasonCode?: number | string;
  authAmount?: number | string;
  order?: { invoiceNumber?: string; description?: string };
  payment?: { creditCard?: AnetCreditCard };
  profile?: { customerProfileId?: string; customerPaymentProfileId?: string };
}

export type AnetCall = <T extends object = object>(
  requestName: string,
  fields: Record<string, unknown>,
) => Promise<AnetResponse & Partial<T>>;

export function createAuthorizeNetApi(
  config: Pick<AuthorizeNetConfig, 'endpoint' | 'apiLoginId' | 'transactionKey' | 'timeoutMs'>,
  doFetch: typeof fetch = fetch,
): AnetCall {
  return async <T extends object = object>(
    requestName: string,
    fields: Record<string, unknown>,
  ): Promise<AnetResponse & Partial<T>> => {
    const body = JSON.stringify({
      [requestName]: {
        merchantAuthentication: { name: config.apiLoginId, transactionKey: config.transactionKey },
        ...fields,
      },
    });
    let text: string;
    let status: number;
    try {
      const response = await doFetch(config.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      status = response.status;
      // Read under the same deadline: a body that never ends is a timeout too.
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new PaymentGatewayError(
        'network_error',
        `Authorize.Net ${requestName}: ${timedOut ? `no answer within ${config.timeoutMs} ms` : 'unreachable'}`,
        { cause: error },
      );
    }
    if (status >= 500 || status === 429) {
      throw new PaymentGatewayError(
        'network_error',
        `Authorize.Net ${requestName}: HTTP ${status}`,
      );
    }
    if (status !== 200) {
      throw new PaymentGatewayError(
        'configuration_error',
        `Authorize.Net ${requestName}: HTTP ${status}`,
      );
    }
    return parseAnetResponse<T>(requestName, text);
  };
}

/** Parses an answer, byte-order mark and all (a decoder may or may not have stripped it). */
export function parseAnetResponse<T extends object>(
  requestName: string,
  text: string,
): AnetResponse & Partial<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new PaymentGatewayError(
      'unexpected_response',
      `Authorize.Net ${requestName}: the answer is not JSON`,
      { cause: error },
    );
  }
  const messages = (parsed as { messages?: AnetResponse['messages'] } | null)?.messages;
  if (
    !messages ||
    (messages.resultCode !== 'Ok' && messages.resultCode !== 'Error') ||
    !Array.isArray(messages.message)
  ) {
    throw new PaymentGatewayError(
      'unexpected_response',
      `Authorize.Net ${requestName}: the answer has no resultCode`,
    );
  }
  return parsed as AnetResponse & Partial<T>;
}

export function firstMessage(response: AnetResponse): AnetMessage {
  return response.messages.message[0] ?? { code: '', text: '' };
}

/** Error codes of the OTS service behind Accept.js: the opaque data is unknown, used or expired. */
const TOKEN_ERRORS = new Set(['E00114', 'E00116', 'E00117']);

/** A request-level error (resultCode Error with no transaction outcome) as the port's error. */
export function apiError(requestName: string, response: AnetResponse): PaymentGatewayError {
  const { code, text } = firstMessage(response);
  const message = `Authorize.Net ${requestName}: ${code} ${text}`;
  if (code === 'E00001') return new PaymentGatewayError('processor_error', message);
  if (code === 'E00040') return new PaymentGatewayError('not_found', message);
  if (code === 'E00027') return new PaymentGatewayError('card_declined', message);
  if (TOKEN_ERRORS.has(code)) return new PaymentGatewayError('invalid_token', message);
  // Authentication (E00007 …) and malformed requests: nothing a retry would change.
  return new PaymentGatewayError('configuration_error', message);
}

/** Integer cents as the API's decimal amount: 7300 → '73.00'. */
export function centsToAmount(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export function amountToCents(amount: number | string | undefined): number {
  return Math.round(Number(amount ?? 0) * 100);
}
