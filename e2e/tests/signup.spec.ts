import type { TSubscriptionCode } from '../../packages/domain/src/catalogue.ts';
import { formatCurrency } from '../../packages/domain/src/money.ts';
import { R3_PRICE_TABLE, quote } from '../../packages/domain/src/prices.ts';
import { acceptEssentialCookies, expect, expectAccessible, test } from './fixtures.ts';
import {
  solveCaptcha,
  heading,
  itemBox,
  expectTotalMatchesQuote,
  fillContact,
  fillDealership,
  fillCard,
  continueTo,
  throughDealership,
} from './signup-steps.ts';

/**
 * Sign-up end to end (issue 6): the four pages, the calculator against the domain's quote, the
 * sandbox gateway's test cards, promotion codes, the verification mail, the set-password link
 * and the first payment in the new account's history.
 */

const PASSWORD = 'Signup!Pass2026';
const uniqueEmail = (tag: string) =>
  `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

test.describe('sign-up (issue 6)', () => {
  test('home → four pages → confirmation → mailbox → set password → signed in, first payment with its receipt', async ({
    page,
  }) => {
    const email = uniqueEmail('happy');
    await page.goto('/home');
    await acceptEssentialCookies(page);
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await expect(page).toHaveURL(/\/signup$/);

    // Page 1: no stepper.
    await heading(page, 'Contact details');
    await expect(page.getByRole('navigation', { name: 'Sign-up progress' })).toHaveCount(0);
    await expectAccessible(page);
    await fillContact(page, email);
    await continueTo(page);

    // Page 2: the calculator follows every selection, as the domain prices it.
    await heading(page, 'Subscriptions');
    await expect(page.getByRole('navigation', { name: 'Sign-up progress' })).toHaveCount(0);
    await expect(page.getByText('Galves Simulcast unavailable')).toBeVisible();
    await expect(itemBox(page, 'NADA_S')).toBeDisabled();
    await expectAccessible(page);
    await itemBox(page, 'NADA').check();
    await expectTotalMatchesQuote(page, ['NADA']);
    await itemBox(page, 'NADA_S').check();
    // Two paid items: every extra and extra simulcast is selected, and free.
    await expect(itemBox(page, 'CF')).toBeChecked();
    await expect(itemBox(page, 'AC_S')).toBeChecked();
    await expectTotalMatchesQuote(page, ['NADA', 'NADA_S', 'CF', 'CF_S', 'AC', 'AC_S']);
    await itemBox(page, 'MMR').check();
    await expectTotalMatchesQuote(page, ['NADA', 'NADA_S', 'MMR', 'CF', 'CF_S', 'AC', 'AC_S']);
    await itemBox(page, 'NADA').uncheck(); // takes its simulcast with it; one paid item left
    await expect(itemBox(page, 'NADA_S')).not.toBeChecked();
    await expect(itemBox(page, 'CF')).not.toBeChecked();
    await expectTotalMatchesQuote(page, ['MMR']);
    await itemBox(page, 'NADA').check();
    const codes: TSubscriptionCode[] = ['NADA', 'MMR', 'CF', 'CF_S', 'AC', 'AC_S'];
    await expectTotalMatchesQuote(page, codes);
    await continueTo(page);

    // Page 3: the stepper appears.
    await heading(page, 'Dealership Information');
    const stepper = page.getByRole('navigation', { name: 'Sign-up progress' });
    await expect(stepper).toContainText('Subscriptions');
    await expect(
      stepper.getByRole('listitem').filter({ hasText: 'Dealership Info' }),
    ).toHaveAttribute('aria-current', 'step');
    await expectAccessible(page);
    await fillDealership(page);
    await continueTo(page);

    // Page 4.
    await heading(page, 'Payment Information');
    await expect(page.getByLabel('Card number')).toHaveValue('');
    await expect(page.getByLabel(/Billing address is the same/)).toBeChecked();
    const total = formatCurrency(quote(codes, new Date(), R3_PRICE_TABLE).totalCents);
    // R4: the first month is charged today, and the summary says so before the next charge.
    await expect(page.getByTestId('order-summary-today')).toHaveText(
      `Your first month, ${total} (plus tax if applicable), is charged today.`,
    );
    await expect(page.getByTestId('order-summary')).toContainText(
      `Your next charge will be ${total} (plus tax if applicable) on `,
    );
    await expect(page.getByTestId('order-summary')).toContainText('Cancel or Adjust anytime');
    await expectAccessible(page);
    // 000 §5: the number takes digits and spaces, the expiry digits and a slash.
    await page.getByLabel('Card number').pressSequentially('41a1-1 ');
    await expect(page.getByLabel('Card number')).toHaveValue('4111 ');
    await page.getByLabel('Expiration date (MM/YY)').pressSequentially('1x2/');
    await expect(page.getByLabel('Expiration date (MM/YY)')).toHaveValue('12/');
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Card number').blur();
    await expect(page.getByLabel('Card number')).toHaveValue('4111111111111111');
    await expect(page.getByText('Card type: Visa')).toBeVisible();
    await page.getByLabel('Expiration date (MM/YY)').fill('12/30');
    await page.getByLabel('CVV').fill('123');
    await page.getByLabel('Referred By').fill('A friend');
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Done' }).click();

    await expect(page).toHaveURL(/\/signup\/confirmation$/, { timeout: 30_000 });
    await expect(
      page.getByRole('heading', { level: 1, name: 'Verification email sent.' }),
    ).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expectAccessible(page);

    // The verification mail sets the password, then signs in at forwardTo.
    await page.goto('/dev/mailbox');
    const mail = page
      .getByRole('listitem')
      .filter({ hasText: `To ${email}` })
      .filter({
        hasText: 'Verify your e-mail',
      });
    await mail.getByText(/Verify your e-mail/).click();
    await mail.getByRole('link', { name: /\/identity\/set-password\?token=/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Set your password' })).toBeVisible();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm new password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    // R6 (issue 14.17): signed in at once at forwardTo, the password not typed a second time.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('navigation', { name: 'Account' })).toBeVisible();

    const current = await page.request.get('/api/users/current');
    expect(current.status()).toBe(200);
    const user = (await current.json()) as {
      data: { accountStatus: string; subscriptions: string[] };
    };
    expect(user.data.accountStatus).toBe('active');
    expect(user.data.subscriptions).toEqual(codes);
    const year = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      year: 'numeric',
    }).format(new Date());
    const history = await page.request.get(`/api/users/paymentHistory?year=${year}`);
    expect(history.status()).toBe(200);
    const body = (await history.json()) as {
      data: { payments: { amount: number; receiptBlob: string; paidWith: string }[] };
    };
    expect(body.data.payments).toHaveLength(1);
    expect(body.data.payments[0]!.amount).toBe(
      quote(codes, new Date(), R3_PRICE_TABLE).totalCents / 100,
    );
    expect(
      Buffer.from(body.data.payments[0]!.receiptBlob, 'base64').subarray(0, 5).toString(),
    ).toBe('%PDF-');
  });

  test('a promotion code alone signs up without a card', async ({ page }) => {
    const email = uniqueEmail('promo');
    await throughDealership(page, email, ['KBB']);
    await page.getByLabel('Promotional code').fill('FREEMONTH');
    await page.getByLabel('Promotional code').blur();
    await solveCaptcha(page);
    const sent = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/v2/signup'),
    );
    await page.getByRole('button', { name: 'Done' }).click();
    // 001 §4: with a promotion code and no card, the billing name and address are blanked.
    expect((await sent).postDataJSON()).toMatchObject({
      paymentToken: '',
      billingFirstName: '',
      billingLastName: '',
      billingAddress1: '',
      billingAddress2: '',
      billingCity: '',
      billingState: '',
      billingZip: '',
    });
    await expect(page).toHaveURL(/\/signup\/confirmation$/, { timeout: 30_000 });
    await expect(page.getByText(email)).toBeVisible();
    const taken = await page.request.get(`/api/users/userIdTaken/${encodeURIComponent(email)}`);
    expect(await taken.json()).toEqual({ data: true });
  });

  test('an e-mail in the company domain is refused on page 1 (issue 14.16)', async ({ page }) => {
    await page.goto('/signup');
    await acceptEssentialCookies(page);
    const email = page.getByRole('textbox', { name: 'Email', exact: true });
    await email.fill('robin@dealerpass.example');
    await email.blur();
    await expect(page.getByText('Cannot create user with DealerPass email domain.')).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  test('the first captcha click right after typing a promotion code verifies (issue 14.6)', async ({
    page,
  }) => {
    await throughDealership(page, uniqueEmail('promo-click'), ['KBB']);
    await page.getByLabel('Promotional code').fill('FREEMONTH');
    // No blur first: the click itself moves the focus out of the code field.
    await page.getByLabel('I’m not a robot').click();
    await expect(page.getByText('Verified.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Invalid Promo Code.')).toHaveCount(0);
  });

  test('a declined card shows its message and makes no account; a good card then succeeds', async ({
    page,
  }) => {
    const email = uniqueEmail('declined');
    await throughDealership(page, email, ['APG']);
    await fillCard(page, '4000000000000002');
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Done' }).click();

    const toast = page.locator('.toast-stack--bottom-center').getByRole('alert');
    await expect(toast).toContainText('Credit card not valid.', { timeout: 30_000 });
    await expect(page.getByText('Credit card not valid.').first()).toBeVisible();
    await expect(page.getByLabel('I’m not a robot')).not.toBeChecked();
    await heading(page, 'Payment Information');
    const taken = await page.request.get(`/api/users/userIdTaken/${encodeURIComponent(email)}`);
    expect(await taken.json()).toEqual({ data: false });

    await fillCard(page, '5555555555554444');
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(/\/signup\/confirmation$/, { timeout: 30_000 });
  });

  test('every validation message of pages 1–4 appears for its input', async ({ page }) => {
    await page.goto('/signup');
    await acceptEssentialCookies(page);

    // Page 1: each message once its field is touched.
    const page1: [string, string, string][] = [
      ['First name', '', 'First name is required.'],
      ['Last name', '', 'Last name is required.'],
      ['Email', 'robin@example', 'Email must be a valid email address.'],
      [
        'Mobile phone number',
        '31355',
        'Mobile phone number must match the following pattern: XXX-XXX-XXXX.',
      ],
      ['Dealership', '', 'Dealership is required.'],
    ];
    for (const [label, value, message] of page1) {
      const field = page.getByRole('textbox', { name: label, exact: true });
      await field.fill(value);
      await field.blur();
      await expect(page.getByText(message)).toBeVisible();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    await continueTo(page);
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toBeFocused();
    await expect(summary).toContainText('Device type is required.');
    await expect(summary).toContainText(
      'You must agree to Terms of Use, Privacy, and Refund polices.',
    );
    await expect(summary).toContainText('reCAPTCHA required to prove you’re not a robot.');
    await expectAccessible(page);

    await fillContact(page, uniqueEmail('valid'));
    await continueTo(page);

    // Page 2.
    await heading(page, 'Subscriptions');
    await continueTo(page);
    await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toContainText(
      'At least one subscription is required.',
    );
    await itemBox(page, 'BBK').check();
    await continueTo(page);

    // Page 3.
    await heading(page, 'Dealership Information');
    await page.getByLabel('User AuctionACCESS ID').fill('200000000');
    await page.getByLabel('User AuctionACCESS ID').blur();
    await expect(page.getByText('Must enter a valid Auction Access Id')).toBeVisible();
    await page.getByLabel('Dealership AuctionACCESS ID').fill('7000000');
    await page.getByLabel('Dealership AuctionACCESS ID').blur();
    await expect(page.getByText('Must enter a valid Dealership Auction Access Id')).toBeVisible();
    await continueTo(page);
    const summary3 = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary3).toContainText('Address is required.');
    await expect(summary3).toContainText('City is required.');
    // All in one round (issue 14.15): the country's rules are judged beside the fields' own.
    await expect(summary3).toContainText('State is required.');
    await expect(summary3).toContainText('Valid postal code is required.');
    await expect(page.getByText('State is required.').first()).toBeVisible();
    // They still apply once the other fields are valid.
    await page.getByLabel('User AuctionACCESS ID').fill('');
    await page.getByLabel('Dealership AuctionACCESS ID').fill('');
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('1 Main St');
    await page.getByLabel('City').fill('Detroit');
    await page.getByLabel('Postal code').fill('4822');
    await continueTo(page);
    await expect(summary3).toContainText('State is required.');
    await expect(summary3).toContainText('Valid postal code is required.');
    // Canada: Province, optional; a US-style code is not Canadian; changing country clears it.
    await page.getByLabel('Country').selectOption('CA');
    await expect(page.getByLabel('Province')).toHaveValue('');
    await expect(page.getByLabel('Postal code')).toHaveAttribute('maxlength', '7');
    await page.getByLabel('Country').selectOption('US');
    await expect(page.getByLabel('Postal code')).toHaveAttribute('inputmode', 'numeric');
    await fillDealership(page);
    await continueTo(page);

    // Page 4.
    await heading(page, 'Payment Information');
    await page.getByRole('button', { name: 'Done' }).click();
    const summary4 = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary4).toContainText(
      'To continue, enter your credit card information OR a valid promotional code.',
    );
    await expect(summary4).toContainText('reCAPTCHA required to prove you’re not a robot.');

    await page.getByLabel('Card number').fill('4111111111111112');
    await page.getByLabel('Expiration date (MM/YY)').fill('13/30');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(summary4).toContainText('Credit card not valid.');
    await expect(summary4).toContainText('Expiration date must be four digits (MM/YY).');
    await expect(summary4).toContainText('CVV is required when credit card number is present.');
    await page.getByLabel('Expiration date (MM/YY)').fill('01/20');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(summary4).toContainText('Expiration date must be a future date.');

    // Typed but never left: the blur rule has not marked it, so it is not taken (001 §4–5).
    await page.getByLabel('Promotional code').fill('SOMECODE');
    await page.getByLabel('Promotional code').press('Enter');
    await expect(summary4).toContainText('Invalid Promo Code.');

    await page.getByLabel(/Billing address is the same/).uncheck();
    // Issue 14: billing became required (a card, no valid code): its fields carry the '*' marker,
    // line 2 does not.
    for (const id of ['first-name', 'last-name', 'address1', 'country', 'state', 'city', 'zip']) {
      await expect(page.locator(`label[for="signup-billing-${id}"]`)).toContainText('*');
    }
    await expect(page.locator('label[for="signup-billing-address2"]')).not.toContainText('*');
    await page.getByLabel('Billing postal code').fill('12');
    await page.getByRole('button', { name: 'Done' }).click();
    for (const message of [
      'Billing first name is required.',
      'Billing last name is required.',
      'Billing address is required.',
      'Billing city is required.',
      'Billing state is required.',
      'Valid billing postal code is required.',
    ]) {
      await expect(summary4).toContainText(message);
    }
    await expectAccessible(page);
    // Ticking the box again clears the billing fields and their messages.
    await page.getByLabel(/Billing address is the same/).check();
    await page.getByLabel(/Billing address is the same/).uncheck();
    await expect(page.getByLabel('Billing postal code')).toHaveValue('');
    // Issue 14: the summary follows the fields: the cleared billing problems leave it at once
    // (before, its stale line stayed until the next submit), the others stay.
    await expect(
      page.getByText('Valid billing postal code is required.', { exact: true }),
    ).toHaveCount(0);
    await expect(summary4).not.toContainText('Billing first name is required.');
    await expect(summary4).toContainText('reCAPTCHA required to prove you’re not a robot.');
    // Fixing a field removes its line without a submit.
    await page.getByLabel('Expiration date (MM/YY)').fill('12/30');
    await page.getByLabel('Expiration date (MM/YY)').blur();
    await expect(summary4).not.toContainText('Expiration date must be a future date.');
  });

  test('on a first visit the cookie banner covers neither the terms box nor the captcha', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto('/signup');
    await heading(page, 'Contact details');
    const banner = page.getByRole('region', { name: 'Cookies on DealerPass' });
    await expect(banner).toBeVisible();
    for (const target of [
      page.getByLabel(/I agree to the Terms of Use/),
      page.getByLabel('I’m not a robot'),
    ]) {
      // Focus scrolls the field into view, as Tab does; it must then be clear of the banner (once
      // the message that leaving the previous field shows has moved the page).
      await target.focus();
      await expect
        .poll(async () => {
          const [field, cover] = await Promise.all([target.boundingBox(), banner.boundingBox()]);
          return field!.y >= 0 && field!.y + field!.height <= cover!.y;
        }, 'the focused field is clear of the banner')
        .toBe(true);
    }
    // Scrolled to the end, the last of the page is above the banner too.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footer = await page.getByRole('contentinfo').boundingBox();
    expect(footer!.y + footer!.height).toBeLessThanOrEqual((await banner.boundingBox())!.y);
  });

  test('Back keeps what was typed; sub-paths and /signupv2 return to /signup', async ({ page }) => {
    await page.goto('/signup/anything/else');
    await expect(page).toHaveURL(/\/signup$/);
    await page.goto('/signupv2');
    await expect(page).toHaveURL(/\/signup$/);
    await acceptEssentialCookies(page);
    const email = uniqueEmail('back');
    await fillContact(page, email);
    await continueTo(page);
    await itemBox(page, 'ANET').check();
    await continueTo(page);
    await heading(page, 'Dealership Information');
    await page.getByLabel('City').fill('Flint');
    await page.getByRole('button', { name: 'Back' }).click();
    await heading(page, 'Subscriptions');
    await expect(itemBox(page, 'ANET')).toBeChecked();
    await page.getByRole('button', { name: 'Back' }).click();
    await heading(page, 'Contact details');
    await expect(page.getByLabel('Email')).toHaveValue(email);
  });
});
