import type { Page } from '@playwright/test';
import { nameOf, type TSubscriptionCode } from '../../packages/domain/src/catalogue.ts';
import { formatCurrency } from '../../packages/domain/src/money.ts';
import { R3_PRICE_TABLE, quote } from '../../packages/domain/src/prices.ts';
import { acceptEssentialCookies, expect } from './fixtures.ts';

/**
 * The sign-up pages' steps (issue 6), shared by the sign-up tests and the multi-instance journey
 * (e2e/multi-instance).
 */

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function solveCaptcha(page: Page) {
  await page.getByLabel('I’m not a robot').click();
  await expect(page.getByText('Verified.')).toBeVisible({ timeout: 30_000 });
}

export async function heading(page: Page, text: string) {
  await expect(page.getByRole('heading', { level: 1, name: `Sign up: ${text}` })).toBeVisible();
}

/**
 * A catalogue row's checkbox: its name, then its price, or "included free" for an extra two paid
 * items make free (R3) (the simulcast's name ends "Simulcast").
 */
export function itemBox(page: Page, code: TSubscriptionCode) {
  return page.getByRole('checkbox', {
    name: new RegExp(`^${escape(nameOf(code))} (\\$|included free$)`),
  });
}

/** The calculator's total equals the domain's quote of the current selection (R3). */
export async function expectTotalMatchesQuote(page: Page, codes: TSubscriptionCode[]) {
  const expected = formatCurrency(quote(codes, new Date(), R3_PRICE_TABLE).totalCents);
  await expect(page.getByTestId('calculator-total')).toHaveText(expected);
  const stored = await page.evaluate(() => localStorage.getItem('sub_total'));
  expect(`$${stored}`).toBe(expected.replace(',', ''));
}

export async function fillContact(page: Page, email: string) {
  await heading(page, 'Contact details');
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Last name').fill('Dealer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone country code').selectOption('US');
  await page.getByLabel('Mobile phone number').fill('3135550142');
  await expect(page.getByLabel('Mobile phone number')).toHaveValue('313-555-0142');
  await page.getByLabel('Dealership').fill('Robin Motors');
  await page.getByLabel('Device type').selectOption('Android');
  await page.getByLabel(/I agree to the Terms of Use/).check();
  await solveCaptcha(page);
}

export async function fillDealership(page: Page) {
  await heading(page, 'Dealership Information');
  await page.getByLabel('User AuctionACCESS ID').fill('100482913');
  await page.getByLabel('Dealership AuctionACCESS ID').fill('5104827');
  await page.getByRole('textbox', { name: 'Address', exact: true }).fill('400 Woodward Ave');
  await page.getByLabel('Country').selectOption('US');
  await page.getByLabel('State').selectOption('MI');
  await page.getByLabel('City').fill('Detroit');
  await page.getByLabel('Postal code').fill('48226');
}

export async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date (MM/YY)').fill('12/30');
  await page.getByLabel('CVV').fill('123');
}

export async function continueTo(page: Page) {
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Pages 1–3 with the given selection, ending on the payment page. */
export async function throughDealership(page: Page, email: string, codes: TSubscriptionCode[]) {
  await page.goto('/signup');
  await acceptEssentialCookies(page);
  await fillContact(page, email);
  await continueTo(page);
  await heading(page, 'Subscriptions');
  for (const code of codes) await itemBox(page, code).check();
  await continueTo(page);
  await fillDealership(page);
  await continueTo(page);
  await heading(page, 'Payment Information');
}
