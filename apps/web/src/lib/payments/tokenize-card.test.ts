import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_MESSAGES } from '@dealerpass/domain/schemas/messages';
import type {
  AcceptResponse,
  AcceptSecureData,
  CardTokenizationError,
  PaymentGatewayConfig,
} from './tokenize-card.ts';

// A fresh module per test: Accept.js is loaded once per page, and each test is a new page.
async function load() {
  vi.resetModules();
  return import('./tokenize-card.ts');
}

const CARD = { cardNumber: '4111 1111 1111 1111', expiration: '12/28', cvv: '123' };

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

async function rejection(promise: Promise<unknown>): Promise<CardTokenizationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect((error as Error | null)?.name).toBe('CardTokenizationError');
  return error as CardTokenizationError;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.innerHTML = '';
  delete window.Accept;
});

describe('tokenizeCard with the sandbox gateway', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });

  it('posts the card to the gateway’s token URL, not our API, and returns only token, brand, last four and expiry', async () => {
    document.head.innerHTML =
      '<meta name="csrf-token" content="csrf-123"><meta name="dp-config" content="{&quot;payments&quot;:{&quot;kind&quot;:&quot;sandbox&quot;,&quot;tokenUrl&quot;:&quot;/sandbox-gateway/v1/tokens&quot;}}">';
    fetchMock.mockResolvedValue(
      json(201, {
        data: {
          paymentToken: 'sbx_tok_abc',
          cardBrand: 'visa',
          cardLast4: '1111',
          creditCardExpiration: '1228',
          expiresAt: '2026-03-10T15:15:00.000Z',
        },
      }),
    );
    const { tokenizeCard } = await load();

    await expect(tokenizeCard(CARD)).resolves.toEqual({
      paymentToken: 'sbx_tok_abc',
      cardBrand: 'visa',
      cardLast4: '1111',
      creditCardExpiration: '1228',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/sandbox-gateway/v1/tokens');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('omit');
    expect(JSON.parse(String(init?.body))).toEqual({
      creditCardNumber: '4111111111111111',
      creditCardExpiration: '1228',
      creditCardCode: '123',
    });
    const headers = init?.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    expect(Object.keys(headers).some((h) => h.startsWith('x-'))).toBe(false);
  });

  it('uses the sandbox when the page names no gateway', async () => {
    fetchMock.mockResolvedValue(
      json(201, {
        data: {
          paymentToken: 't',
          cardBrand: 'amex',
          cardLast4: '0005',
          creditCardExpiration: '0130',
        },
      }),
    );
    const { tokenizeCard, DEFAULT_PAYMENT_GATEWAY, paymentGatewayConfig } = await load();
    expect(paymentGatewayConfig()).toEqual(DEFAULT_PAYMENT_GATEWAY);
    await tokenizeCard({ cardNumber: '378282246310005', expiration: '0130', cvv: '1234' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/sandbox-gateway/v1/tokens');
  });

  it('hands back the gateway’s field messages under the card form’s field names', async () => {
    fetchMock.mockResolvedValue(
      json(400, {
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Something went wrong!',
        errors: [
          { source: 'creditCardNumber', message: CARD_MESSAGES.numberInvalid },
          { source: 'creditCardCode', message: CARD_MESSAGES.cvvTooShort },
          { source: 'somethingElse', message: 'ignored' },
        ],
      }),
    );
    const { tokenizeCard } = await load();
    const error = await rejection(tokenizeCard({ ...CARD, cvv: '12' }));
    expect(error.code).toBe('CARD_INVALID');
    expect(error.errors).toEqual([
      { source: 'creditCardNumber', message: 'Credit card not valid.' },
      { source: 'creditCardCode', message: 'CVV must be at least 3 characters.' },
    ]);
  });

  it.each([
    [
      'a rate limit',
      () => Promise.resolve(json(429, { message: 'Too many requests.' })),
      'RATE_LIMITED',
    ],
    ['a server failure', () => Promise.resolve(json(500, {})), 'GATEWAY_ERROR'],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch')), 'NETWORK_ERROR'],
  ] as const)('reports %s', async (_name, answer, code) => {
    fetchMock.mockImplementation(answer);
    const { tokenizeCard } = await load();
    expect((await rejection(tokenizeCard(CARD))).code).toBe(code);
  });
});

describe('tokenizeCard with Authorize.Net Accept.js', () => {
  const config: PaymentGatewayConfig = {
    kind: 'authorize-net',
    acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
    apiLoginId: 'login-id',
    clientKey: 'client-key',
  };

  function stubAccept(answer: (data: AcceptSecureData) => AcceptResponse) {
    const dispatchData = vi.fn((data: AcceptSecureData, callback: (r: AcceptResponse) => void) => {
      setTimeout(() => callback(answer(data)), 0);
    });
    window.Accept = { dispatchData };
    return dispatchData;
  }

  it('dispatches the card to Accept.js and returns the opaque data value as the token', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    const dispatchData = stubAccept(() => ({
      opaqueData: {
        dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT',
        dataValue: 'eyJvcGFxdWUiOnRydWV9',
      },
      messages: { resultCode: 'Ok', message: [{ code: 'I_WC_01', text: 'Successful.' }] },
    }));
    const { tokenizeCard } = await load();

    await expect(
      tokenizeCard(
        { cardNumber: '5555 5555 5555 4444', expiration: '09/29', cvv: '321' },
        { config },
      ),
    ).resolves.toEqual({
      paymentToken: 'eyJvcGFxdWUiOnRydWV9',
      cardBrand: 'mastercard',
      cardLast4: '4444',
      creditCardExpiration: '0929',
    });
    expect(dispatchData.mock.calls[0]?.[0]).toEqual({
      authData: { clientKey: 'client-key', apiLoginID: 'login-id' },
      cardData: { cardNumber: '5555555555554444', month: '09', year: '2029', cardCode: '321' },
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reads the gateway from the page’s runtime config', async () => {
    document.head.innerHTML = `<meta name="dp-config" content='${JSON.stringify({ payments: config })}'>`;
    stubAccept(() => ({
      opaqueData: { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'v' },
      messages: { resultCode: 'Ok', message: [] },
    }));
    const { tokenizeCard } = await load();
    await expect(tokenizeCard(CARD)).resolves.toMatchObject({
      paymentToken: 'v',
      cardBrand: 'visa',
    });
  });

  it('maps Accept.js card errors to the fields’ messages', async () => {
    stubAccept(() => ({
      messages: {
        resultCode: 'Error',
        message: [
          { code: 'E_WC_08', text: 'Expiration date must be in the future.' },
          { code: 'E_WC_15', text: 'Please provide valid CVV.' },
        ],
      },
    }));
    const { tokenizeCard } = await load();
    const error = await rejection(tokenizeCard(CARD, { config }));
    expect(error.code).toBe('CARD_INVALID');
    expect(error.errors).toEqual([
      { source: 'creditCardExpiration', message: CARD_MESSAGES.expiryPast },
      { source: 'creditCardCode', message: CARD_MESSAGES.cvvInvalid },
    ]);
  });

  it('reports other Accept.js errors as gateway errors', async () => {
    stubAccept(() => ({
      messages: {
        resultCode: 'Error',
        message: [
          {
            code: 'E_WC_21',
            text: 'User authentication failed due to invalid authentication values.',
          },
        ],
      },
    }));
    const { tokenizeCard } = await load();
    const error = await rejection(tokenizeCard(CARD, { config }));
    expect(error).toMatchObject({ code: 'GATEWAY_ERROR', errors: [] });
    expect(error.message).toContain('E_WC_21');
  });

  it('refuses a number of no known brand without sending it anywhere', async () => {
    const dispatchData = stubAccept(() => ({ messages: { resultCode: 'Ok', message: [] } }));
    const { tokenizeCard } = await load();
    const error = await rejection(
      tokenizeCard({ ...CARD, cardNumber: '9111111111111111' }, { config }),
    );
    expect(error.errors).toEqual([
      { source: 'creditCardNumber', message: CARD_MESSAGES.numberInvalid },
    ]);
    expect(dispatchData).not.toHaveBeenCalled();
  });

  it('loads Accept.js once from its configured URL with the page’s nonce', async () => {
    document.head.innerHTML = '<script nonce="page-nonce" src="/assets/app.js"></script>';
    const { loadAcceptJs } = await load();
    const first = loadAcceptJs(config.acceptJsUrl);
    const second = loadAcceptJs(config.acceptJsUrl);
    const scripts = [...document.head.querySelectorAll('script')].filter((s) =>
      s.src.startsWith('https://jstest.authorize.net/'),
    );
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.src).toBe('https://jstest.authorize.net/v1/Accept.js');
    expect(scripts[0]?.nonce).toBe('page-nonce');

    const accept = { dispatchData: vi.fn() };
    window.Accept = accept;
    scripts[0]?.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(accept);
    await expect(second).resolves.toBe(accept);
  });

  it('reports a script that fails to load, and tries again next time', async () => {
    const { loadAcceptJs } = await load();
    const attempt = loadAcceptJs(config.acceptJsUrl);
    document.head.querySelector('script')?.dispatchEvent(new Event('error'));
    expect((await rejection(attempt)).code).toBe('NETWORK_ERROR');
    expect(document.head.querySelector('script')).toBeNull();
    void loadAcceptJs(config.acceptJsUrl);
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
  });
});
