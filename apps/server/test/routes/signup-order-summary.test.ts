import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriods, mailOutbox, priceChangeNotices, users } from '../../src/db/schema.ts';
import { seedDemoPromotions } from '../../src/services/demo/seed-demo-promotions.ts';
import { schedulePriceChange } from '../../src/services/prices/schedule-price-change.ts';
import { signupBody } from '../factories/signup-body.ts';
import { buildTestApp, type TestApp, type TestBrowser } from '../support/helper.ts';

/** Nov 27, 2026, 10:00 in New York: the sign-up day; Dec 27 is 30 days on (R11). */
const NOW = new Date('2026-11-27T15:00:00Z');
let ipCounter = 0;
const freshIp = () => `10.32.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/**
 * Issue 25 items 4 and 5 (DECISIONS R4, R11 amended; docs/decisions/032): page 4's Order Summary
 * is the server's, computed as the sign-up charges, with promotion codes and a scheduled price.
 */
describe('the sign-up Order Summary (POST /api/signup/order-summary)', () => {
  let t: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    t = await buildTestApp({ now: () => NOW });
    browser = await t.browser();
    await seedDemoPromotions(t.app.db, NOW);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object) =>
    browser.request({ method: 'POST', url, payload, remoteAddress: freshIp() });
  const summary = async (subscriptions: string[], promoCode = '') => {
    const response = await post('/api/signup/order-summary', { subscriptions, promoCode });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  async function cardToken() {
    const response = await t.app.inject({
      method: 'POST',
      url: '/sandbox-gateway/v1/tokens',
      payload: {
        creditCardNumber: '4111111111111111',
        creditCardExpiration: '12/30',
        creditCardCode: '123',
      },
      remoteAddress: freshIp(),
    });
    const data = response.json().data;
    return {
      paymentToken: data.paymentToken,
      cardBrand: data.cardBrand,
      cardLast4: data.cardLast4,
      creditCardExpiration: '1230',
    };
  }
  async function signUp(email: string, fields: Record<string, unknown>) {
    const response = await post('/api/v2/signup', {
      ...signupBody(email, { subscriptions: ['KBB'], ...fields }),
      recaptcha: await t.solveCaptcha(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [user] = await t.app.db.select().from(users).where(eq(users.dealerpassUserId, email));
    const [period] = await t.app.db
      .select()
      .from(billingPeriods)
      .where(eq(billingPeriods.userId, user!.id));
    return { user: user!, period: period! };
  }

  it('without a code: the first month today, the same a month on', async () => {
    expect(await summary(['KBB'])).toMatchObject({
      chargedTodayCents: 6800,
      nextChargeDate: '2026-12-27',
      nextChargeCents: 6800,
      promotionCode: null,
      promotionProblem: null,
      texts: {
        chargedToday: 'Your first month, $68.00 (plus tax if applicable), is charged today.',
        nextCharge:
          'Your next charge will be $68.00 (plus tax if applicable) on Dec 27, 2026. Cancel or Adjust anytime',
      },
    });
  });

  it.each([
    [
      'freemonth',
      0,
      '2026-12-27',
      'Nothing is charged today: your first month is free with FREEMONTH.',
    ],
    [
      'FREE3CARD',
      0,
      '2027-02-27',
      'Nothing is charged today: your first 3 months are free with FREE3CARD.',
    ],
    [
      'WELCOME25',
      5100,
      '2026-12-27',
      'Your first month, $51.00 (plus tax if applicable) after $17.00 off with WELCOME25, is charged today.',
    ],
    [
      'SAVE20',
      4800,
      '2026-12-27',
      'Your first month, $48.00 (plus tax if applicable) after $20.00 off with SAVE20, is charged today.',
    ],
  ])('%s: what is charged today and the real next charge (R4)', async (code, today, date, text) => {
    const data = await summary(['KBB'], code);
    expect(data).toMatchObject({
      chargedTodayCents: today,
      nextChargeDate: date,
      nextChargeCents: 6800,
      promotionCode: code.toUpperCase(),
      promotionProblem: null,
    });
    expect(data.texts.chargedToday).toBe(text);
  });

  it('a code that cannot be used is named with its text, and the summary is without it', async () => {
    expect(await summary(['KBB'], 'NOSUCHCODE')).toMatchObject({
      chargedTodayCents: 6800,
      promotionCode: null,
      promotionProblem: 'Promotion code not valid.',
    });
    expect((await summary(['KBB'], 'EXPIRED')).promotionProblem).toBe('Promotion code not valid.');
  });

  it('refuses a selection the sign-up would refuse, with the page’s message', async () => {
    for (const subscriptions of [[], ['KBB_S'], ['NOPE']]) {
      const response = await post('/api/signup/order-summary', { subscriptions, promoCode: '' });
      expect(response.statusCode, JSON.stringify(subscriptions)).toBe(400);
    }
  });

  it('the sign-up charges what the summary said, and its first bill falls where it said', async () => {
    for (const [email, promoCode, card] of [
      ['summary-free3@example.com', 'FREE3CARD', true],
      ['summary-welcome@example.com', 'WELCOME25', true],
      ['summary-free@example.com', 'FREEMONTH', false],
    ] as const) {
      const said = await summary(['KBB'], promoCode);
      const { user, period } = await signUp(email, {
        promoCode,
        ...(card ? await cardToken() : {}),
      });
      expect(period.amountCents, email).toBe(said.chargedTodayCents);
      expect(user.nextBillDate, email).toBe(said.nextChargeDate);
    }
  });

  it('a scheduled price: the summary says what the next bill charges, and the sign-up is told (R11 amended)', async () => {
    await schedulePriceChange(
      { ...t.app.deps.billing, prices: t.app.prices },
      { effectiveDate: '2026-12-27', prices: [{ item: 'KBB', cents: 7000 }] },
      'command',
    );
    const data = await summary(['KBB']);
    expect(data).toMatchObject({
      chargedTodayCents: 6800,
      nextChargeDate: '2026-12-27',
      nextChargeCents: 7300,
      priceChanges: [
        {
          effectiveDate: '2026-12-27',
          effectiveFrom: '2026-12-27T05:00:00.000Z',
          oldTotalCents: 6800,
          newTotalCents: 7300,
        },
      ],
    });
    expect(data.texts.nextCharge).toBe(
      'Your next charge will be $73.00 (plus tax if applicable) on Dec 27, 2026. Cancel or Adjust anytime',
    );
    expect(data.texts.priceChanges).toEqual([
      'From Dec 27, 2026, the monthly total of these subscriptions changes from $68.00 to $73.00.',
    ]);
    // A selection the change does not move is not told.
    expect((await summary(['NADA'])).priceChanges).toEqual([]);

    const { user } = await signUp('after-scheduling@example.com', await cardToken());
    const [mail] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          like(mailOutbox.subject, 'Verify your e-mail%'),
          eq(mailOutbox.toAddress, 'after-scheduling@example.com'),
        ),
      );
    expect(mail!.textBody).toContain(data.texts.priceChanges[0]);
    // Told as the accounts were at scheduling: a withdrawal will tell it too.
    expect(
      await t.app.db
        .select({
          oldTotalCents: priceChangeNotices.oldTotalCents,
          newTotalCents: priceChangeNotices.newTotalCents,
        })
        .from(priceChangeNotices)
        .where(eq(priceChangeNotices.userId, user.id)),
    ).toEqual([{ oldTotalCents: 6800, newTotalCents: 7300 }]);

    // A sign-up the change does not move gets no notice.
    const { user: other } = await signUp('nada-after@example.com', {
      subscriptions: ['NADA'],
      ...(await cardToken()),
    });
    expect(
      await t.app.db
        .select()
        .from(priceChangeNotices)
        .where(eq(priceChangeNotices.userId, other.id)),
    ).toEqual([]);
  });
});
