import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { detectCardType } from '@dealerpass/domain/validation/card';

/**
 * A local stand-in for Authorize.Net's JSON API (https://developer.authorize.net/api/reference):
 * one POST endpoint, `{ "<name>Request": { merchantAuthentication, ... } }` in, answers that start
 * with a UTF-8 byte-order mark out, `messages.resultCode` Ok or Error, transaction response codes
 * 1 approved, 2 declined, 3 error, 4 held, and duplicate detection (reason 11) by card, amount and
 * invoice number inside `duplicateWindow`. Accept.js is played by acceptToken().
 *
 * Test cards: 4000000000000002 declines (2/2), 4000000000000069 has expired (3/8),
 * 4000000000000259 is held for review (4/252), any other number is approved.
 */

export interface DoubleCard {
  number: string;
  /** MMYY */
  expiration: string;
}

interface DoublePaymentProfile extends DoubleCard {
  id: string;
}

interface DoubleCustomer {
  id: string;
  merchantCustomerId: string;
  email: string;
  description: string;
  paymentProfiles: Map<string, DoublePaymentProfile>;
}

export interface DoubleTransaction {
  transId: string;
  type: 'authCaptureTransaction' | 'refundTransaction';
  amountCents: number;
  invoiceNumber: string;
  customerProfileId?: string;
  paymentProfileId?: string;
  card: DoubleCard;
  refTransId?: string;
  responseCode: '1' | '2' | '3' | '4';
  reasonCode: string;
  status: string;
  submittedAt: number;
}

export interface AuthorizeNetDouble {
  url: string;
  apiLoginId: string;
  transactionKey: string;
  /** What Accept.js hands the browser for a card: the opaque data value, good once. */
  acceptToken(card: DoubleCard): string;
  /** Milliseconds before each answer; the request is processed first, as on a slow network. */
  delayMs: number;
  /** The next `count` transactions fail with a processor error (3/19). */
  failNextTransactions(count: number): void;
  /** The batch settles: the transaction can now be refunded, no longer voided. */
  settle(transId: string): void;
  /** A reviewer decides a held transaction. */
  review(transId: string, decision: 'approve' | 'decline'): void;
  customers: Map<string, DoubleCustomer>;
  transactions: DoubleTransaction[];
  /** Every request as parsed, in order. */
  requests: { name: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

const DESCRIPTOR = 'COMMON.ACCEPT.INAPP.PAYMENT';
const CARD_TYPES = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  amex: 'AmericanExpress',
  discover: 'Discover',
};

/** transactionRequest's elements in the order of Authorize.Net's schema. */
const TRANSACTION_REQUEST_ORDER = [
  'transactionType',
  'amount',
  'currencyCode',
  'payment',
  'profile',
  'solution',
  'callId',
  'authCode',
  'refTransId',
  'splitTenderId',
  'order',
  'lineItems',
  'tax',
  'duty',
  'shipping',
  'taxExempt',
  'poNumber',
  'customer',
  'billTo',
  'shipTo',
  'customerIP',
  'cardholderAuthentication',
  'retail',
  'employeeId',
  'transactionSettings',
  'userFields',
];

type Body = Record<string, unknown>;
type Answer = Record<string, unknown>;

class ApiFailure extends Error {
  readonly code: string;
  readonly extra: Answer;
  constructor(code: string, text: string, extra: Answer = {}) {
    super(text);
    this.code = code;
    this.extra = extra;
  }
}

export async function startAuthorizeNetDouble(): Promise<AuthorizeNetDouble> {
  const apiLoginId = 'double-login';
  const transactionKey = 'double-key-1234';
  const tokens = new Map<string, DoubleCard>();
  const customers = new Map<string, DoubleCustomer>();
  const transactions: DoubleTransaction[] = [];
  const requests: AuthorizeNetDouble['requests'] = [];
  let failures = 0;
  let nextId = 40_000_000;
  const newId = () => String((nextId += 1));

  const handlers: Record<string, (body: Body) => Answer> = {
    createCustomerProfileRequest(body) {
      const profile = object(body.profile);
      const merchantCustomerId = text(profile.merchantCustomerId);
      maxLength('merchantCustomerId', merchantCustomerId, 20);
      const existing = [...customers.values()].find(
        (c) => c.merchantCustomerId === merchantCustomerId,
      );
      if (existing) {
        throw new ApiFailure('E00039', `A duplicate record with ID ${existing.id} already exists.`);
      }
      const card = spendToken(object(profile.paymentProfiles).payment);
      validate(card, body.validationMode);
      const customer: DoubleCustomer = {
        id: newId(),
        merchantCustomerId,
        email: text(profile.email),
        description: text(profile.description),
        paymentProfiles: new Map(),
      };
      customers.set(customer.id, customer);
      const paymentProfile = { id: newId(), ...card };
      customer.paymentProfiles.set(paymentProfile.id, paymentProfile);
      return {
        customerProfileId: customer.id,
        customerPaymentProfileIdList: [paymentProfile.id],
        customerShippingAddressIdList: [],
        validationDirectResponseList: [],
      };
    },
    createCustomerPaymentProfileRequest(body) {
      const customer = customerOf(body.customerProfileId);
      const card = spendToken(object(body.paymentProfile).payment);
      const same = [...customer.paymentProfiles.values()].find(
        (p) => p.number === card.number && p.expiration === card.expiration,
      );
      if (same) {
        throw new ApiFailure('E00039', 'A duplicate customer payment profile already exists.', {
          customerProfileId: customer.id,
          customerPaymentProfileId: same.id,
        });
      }
      validate(card, body.validationMode);
      const paymentProfile = { id: newId(), ...card };
      customer.paymentProfiles.set(paymentProfile.id, paymentProfile);
      return { customerProfileId: customer.id, customerPaymentProfileId: paymentProfile.id };
    },
    getCustomerProfileRequest(body) {
      const customer = customerOf(body.customerProfileId);
      return {
        profile: {
          merchantCustomerId: customer.merchantCustomerId,
          description: customer.description,
          email: customer.email,
          customerProfileId: customer.id,
          paymentProfiles: [...customer.paymentProfiles.values()].map((p) => ({
            customerPaymentProfileId: p.id,
            payment: { creditCard: maskedCard(p, false) },
          })),
        },
      };
    },
    getCustomerPaymentProfileRequest(body) {
      const customer = customerOf(body.customerProfileId);
      const paymentProfile = customer.paymentProfiles.get(text(body.customerPaymentProfileId));
      if (!paymentProfile) throw notFound();
      return {
        paymentProfile: {
          customerProfileId: customer.id,
          customerPaymentProfileId: paymentProfile.id,
          payment: { creditCard: maskedCard(paymentProfile, body.unmaskExpirationDate === true) },
        },
      };
    },
    deleteCustomerPaymentProfileRequest(body) {
      const customer = customerOf(body.customerProfileId);
      if (!customer.paymentProfiles.delete(text(body.customerPaymentProfileId))) throw notFound();
      return {};
    },
    getTransactionDetailsRequest(body) {
      const transaction = transactions.find((t) => t.transId === text(body.transId));
      if (!transaction) throw notFound();
      return {
        transaction: {
          transId: transaction.transId,
          ...(transaction.refTransId ? { refTransId: transaction.refTransId } : {}),
          submitTimeUTC: new Date(transaction.submittedAt).toISOString(),
          transactionType: transaction.type,
          transactionStatus: transaction.status,
          responseCode: Number(transaction.responseCode),
          responseReasonCode: Number(transaction.reasonCode),
          authAmount: transaction.amountCents / 100,
          settleAmount:
            transaction.status === 'settledSuccessfully' ? transaction.amountCents / 100 : 0,
          order: { invoiceNumber: transaction.invoiceNumber },
          payment: { creditCard: maskedCard(transaction.card, false) },
          ...(transaction.customerProfileId
            ? {
                profile: {
                  customerProfileId: transaction.customerProfileId,
                  customerPaymentProfileId: transaction.paymentProfileId,
                },
              }
            : {}),
        },
      };
    },
    createTransactionRequest(body) {
      const request = object(body.transactionRequest);
      const keys = Object.keys(request);
      const positions = keys.map((key) => TRANSACTION_REQUEST_ORDER.indexOf(key));
      if (positions.some((p, i) => p < 0 || (i > 0 && p < (positions[i - 1] ?? 0)))) {
        throw new ApiFailure(
          'E00003',
          `The element 'transactionRequest' has invalid child elements: ${keys.join(', ')}`,
        );
      }
      const order = object(request.order ?? {});
      const invoiceNumber = text(order.invoiceNumber ?? '');
      maxLength('invoiceNumber', invoiceNumber, 20);
      switch (request.transactionType) {
        case 'authCaptureTransaction':
          return authCapture(request, invoiceNumber);
        case 'refundTransaction':
          return refund(request, invoiceNumber);
        case 'voidTransaction':
          return voidTransaction(request);
        default:
          throw new ApiFailure('E00003', `transactionType ${String(request.transactionType)}`);
      }
    },
  };

  function authCapture(request: Body, invoiceNumber: string): Answer {
    const profile = object(request.profile);
    const customer = customerOf(profile.customerProfileId);
    const paymentProfile = customer.paymentProfiles.get(
      text(object(profile.paymentProfile).paymentProfileId),
    );
    if (!paymentProfile) throw notFound();
    const amountCents = cents(request.amount);
    const duplicate = findDuplicate(
      request,
      'authCaptureTransaction',
      amountCents,
      invoiceNumber,
      paymentProfile,
    );
    if (duplicate) return duplicateAnswer(duplicate);

    let outcome: Pick<DoubleTransaction, 'responseCode' | 'reasonCode' | 'status'>;
    if (failures > 0) {
      failures -= 1;
      outcome = { responseCode: '3', reasonCode: '19', status: 'generalError' };
    } else if (paymentProfile.number === '4000000000000002') {
      outcome = { responseCode: '2', reasonCode: '2', status: 'declined' };
    } else if (paymentProfile.number === '4000000000000069') {
      outcome = { responseCode: '3', reasonCode: '8', status: 'generalError' };
    } else if (paymentProfile.number === '4000000000000259') {
      outcome = { responseCode: '4', reasonCode: '252', status: 'FDSPendingReview' };
    } else {
      outcome = { responseCode: '1', reasonCode: '1', status: 'capturedPendingSettlement' };
    }
    const transaction: DoubleTransaction = {
      transId: newId(),
      type: 'authCaptureTransaction',
      amountCents,
      invoiceNumber,
      customerProfileId: customer.id,
      paymentProfileId: paymentProfile.id,
      card: { number: paymentProfile.number, expiration: paymentProfile.expiration },
      ...outcome,
      submittedAt: Date.now(),
    };
    transactions.push(transaction);
    return transactionAnswer(transaction);
  }

  function refund(request: Body, invoiceNumber: string): Answer {
    const original = transactions.find((t) => t.transId === text(request.refTransId));
    const creditCard = object(object(request.payment).creditCard);
    if (!original) throw notFound();
    const amountCents = cents(request.amount);
    const duplicate = findDuplicate(
      request,
      'refundTransaction',
      amountCents,
      invoiceNumber,
      original.card,
    );
    if (duplicate) return duplicateAnswer(duplicate);
    const refunded = transactions
      .filter((t) => t.refTransId === original.transId && t.responseCode === '1')
      .reduce((sum, t) => sum + t.amountCents, 0);
    let outcome: Pick<DoubleTransaction, 'responseCode' | 'reasonCode' | 'status'>;
    if (
      original.status !== 'settledSuccessfully' ||
      creditCard.cardNumber !== original.card.number.slice(-4) ||
      creditCard.expirationDate !== 'XXXX'
    ) {
      outcome = { responseCode: '3', reasonCode: '54', status: 'generalError' };
    } else if (refunded + amountCents > original.amountCents) {
      outcome = { responseCode: '3', reasonCode: '55', status: 'generalError' };
    } else {
      outcome = { responseCode: '1', reasonCode: '1', status: 'refundPendingSettlement' };
    }
    const transaction: DoubleTransaction = {
      transId: newId(),
      type: 'refundTransaction',
      amountCents,
      invoiceNumber,
      card: original.card,
      refTransId: original.transId,
      ...outcome,
      submittedAt: Date.now(),
    };
    transactions.push(transaction);
    return transactionAnswer(transaction);
  }

  function voidTransaction(request: Body): Answer {
    const original = transactions.find((t) => t.transId === text(request.refTransId));
    if (!original) throw notFound();
    if (original.status === 'voided') {
      return transactionAnswer({ ...original, responseCode: '1', reasonCode: '310' });
    }
    if (!['capturedPendingSettlement', 'FDSPendingReview'].includes(original.status)) {
      return transactionAnswer({ ...original, responseCode: '3', reasonCode: '16' });
    }
    original.status = 'voided';
    return transactionAnswer({ ...original, responseCode: '1', reasonCode: '1' });
  }

  function findDuplicate(
    request: Body,
    type: DoubleTransaction['type'],
    amountCents: number,
    invoiceNumber: string,
    card: DoubleCard,
  ): DoubleTransaction | undefined {
    const settings = (object(request.transactionSettings ?? {}).setting ?? []) as Body[];
    const window = settings.find((s) => s.settingName === 'duplicateWindow');
    const seconds = window ? Number(window.settingValue) : 120;
    return transactions.find(
      (t) =>
        t.type === type &&
        t.amountCents === amountCents &&
        t.invoiceNumber === invoiceNumber &&
        t.card.number === card.number &&
        Date.now() - t.submittedAt < seconds * 1000,
    );
  }

  function duplicateAnswer(original: DoubleTransaction): Answer {
    // With duplicateWindow in the request, the answer names the first transaction.
    return transactionAnswer({ ...original, responseCode: '3', reasonCode: '11' });
  }

  function transactionAnswer(t: DoubleTransaction): Answer {
    const ok = t.responseCode === '1' || t.responseCode === '4';
    const text = REASON_TEXTS[t.reasonCode] ?? 'An error occurred during processing.';
    return {
      transactionResponse: {
        responseCode: t.responseCode,
        authCode: t.responseCode === '1' ? 'A1B2C3' : '',
        avsResultCode: 'Y',
        cvvResultCode: '',
        cavvResultCode: '',
        transId: t.transId,
        refTransID: t.refTransId ?? '',
        transHash: '',
        testRequest: '0',
        accountNumber: `XXXX${t.card.number.slice(-4)}`,
        accountType: cardTypeOf(t.card.number),
        ...(ok
          ? { messages: [{ code: t.reasonCode, description: text }] }
          : { errors: [{ errorCode: t.reasonCode, errorText: text }] }),
      },
      ...(ok ? {} : { failure: new ApiFailure('E00027', 'The transaction was unsuccessful.') }),
    };
  }

  function spendToken(payment: unknown): DoubleCard {
    const opaque = object(object(payment).opaqueData);
    const card = tokens.get(text(opaque.dataValue));
    if (opaque.dataDescriptor !== DESCRIPTOR || !card) {
      throw new ApiFailure('E00114', 'Invalid OTS Token.');
    }
    tokens.delete(text(opaque.dataValue));
    return card;
  }

  function validate(card: DoubleCard, mode: unknown) {
    if (mode === 'liveMode' && card.number === '4000000000000002') {
      throw new ApiFailure('E00027', 'The transaction was unsuccessful.');
    }
  }

  function customerOf(id: unknown): DoubleCustomer {
    const customer = customers.get(text(id));
    if (!customer) throw notFound();
    return customer;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    let raw = '';
    for await (const chunk of request) raw += String(chunk);
    let answer: Answer;
    let refId: unknown;
    try {
      let parsed: Body;
      try {
        parsed = object(JSON.parse(raw));
      } catch {
        throw new ApiFailure('E00003', 'An error occurred while parsing the request.');
      }
      const [name, ...rest] = Object.keys(parsed);
      const handler = name ? handlers[name] : undefined;
      if (!name || rest.length > 0 || !handler) {
        throw new ApiFailure('E00004', 'The name of the requested API method is invalid.');
      }
      const body = object(parsed[name]);
      requests.push({ name, body });
      refId = body.refId;
      const [first] = Object.keys(body);
      if (first !== 'merchantAuthentication') {
        throw new ApiFailure(
          'E00003',
          `The element '${name}' has invalid child element '${first}'.`,
        );
      }
      const auth = object(body.merchantAuthentication);
      if (auth.name !== apiLoginId || auth.transactionKey !== transactionKey) {
        throw new ApiFailure(
          'E00007',
          'User authentication failed due to invalid authentication values.',
        );
      }
      if (refId !== undefined) maxLength('refId', text(refId), 20);
      answer = handler(body);
      const failure = answer.failure;
      delete answer.failure;
      answer.messages =
        failure instanceof ApiFailure
          ? { resultCode: 'Error', message: [{ code: failure.code, text: failure.message }] }
          : { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      answer = {
        ...error.extra,
        messages: { resultCode: 'Error', message: [{ code: error.code, text: error.message }] },
      };
    }
    if (typeof refId === 'string') answer = { refId, ...answer };
    if (double.delayMs > 0) await sleep(double.delayMs);
    if (response.destroyed) return;
    response.setHeader('content-type', 'application/json; charset=utf-8');
    // Authorize.Net starts every JSON answer with a byte-order mark.
    response.end(`\uFEFF${JSON.stringify(answer)}`);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');

  const double: AuthorizeNetDouble = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/xml/v1/request.api`,
    apiLoginId,
    transactionKey,
    acceptToken(card) {
      const dataValue = `eyJjb2RlIjoiNTBfMl8w${randomBytes(24).toString('base64url')}`;
      tokens.set(dataValue, card);
      return dataValue;
    },
    delayMs: 0,
    failNextTransactions(count) {
      failures = count;
    },
    settle(transId) {
      const transaction = transactions.find((t) => t.transId === transId);
      if (transaction?.status === 'capturedPendingSettlement') {
        transaction.status = 'settledSuccessfully';
      }
    },
    review(transId, decision) {
      const transaction = transactions.find((t) => t.transId === transId);
      if (transaction?.status !== 'FDSPendingReview') return;
      Object.assign(
        transaction,
        decision === 'approve'
          ? { responseCode: '1', reasonCode: '1', status: 'capturedPendingSettlement' }
          : { responseCode: '2', reasonCode: '2', status: 'failedReview' },
      );
    },
    customers,
    transactions,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return double;
}

const REASON_TEXTS: Record<string, string> = {
  '1': 'This transaction has been approved.',
  '2': 'This transaction has been declined.',
  '8': 'The credit card has expired.',
  '11': 'A duplicate transaction has been submitted.',
  '16': 'The transaction cannot be found.',
  '19': 'An error occurred during processing. Please try again in 5 minutes.',
  '54': 'The referenced transaction does not meet the criteria for issuing a credit.',
  '55': 'The sum of credits against the referenced transaction would exceed original debit amount.',
  '252': 'Your order has been received. Thank you for your business!',
  '310': 'This transaction has already been voided.',
};

function maskedCard(card: DoubleCard, unmaskExpiration: boolean) {
  return {
    cardNumber: `XXXX${card.number.slice(-4)}`,
    expirationDate: unmaskExpiration
      ? `20${card.expiration.slice(2)}-${card.expiration.slice(0, 2)}`
      : 'XXXX',
    cardType: cardTypeOf(card.number),
  };
}

function cardTypeOf(number: string): string {
  const type = detectCardType(number);
  return type ? CARD_TYPES[type] : 'JCB';
}

function notFound(): ApiFailure {
  return new ApiFailure('E00040', 'The record cannot be found.');
}

function object(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiFailure('E00003', 'An error occurred while parsing the request.');
  }
  return value as Body;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

function maxLength(name: string, value: string, max: number) {
  if (value.length > max) {
    throw new ApiFailure(
      'E00003',
      `The '${name}' element is invalid - The actual length is greater than the MaxLength value.`,
    );
  }
}

function cents(amount: unknown): number {
  const value = text(amount);
  if (!/^\d+(\.\d{1,2})?$/.test(value)) throw new ApiFailure('E00003', `amount ${value}`);
  return Math.round(Number(value) * 100);
}
