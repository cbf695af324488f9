import { test, type Cookie, type Page } from '@playwright/test';
import { hotp, totpStep } from '../../apps/server/src/lib/totp.ts';
import {
  DEMO_STAFF,
  DEMO_STAFF_PASSWORD,
  type DemoStaffMember,
} from '../../apps/server/src/services/demo/demo-staff.ts';
import { serverUrl } from '../servers.ts';
import { acceptEssentialCookies, expect } from './fixtures.ts';
import { fillCard, solveCaptcha, throughDealership } from './signup-steps.ts';

/** The operator console's browser tests' shared steps (issue 19, decision 026). */

export function demoStaff(role: DemoStaffMember['role']): DemoStaffMember & { totpSecret: string } {
  const member = DEMO_STAFF.find((candidate) => candidate.role === role);
  if (!member?.totpSecret) throw new Error(`no demo staff member for ${role}`);
  return { ...member, totpSecret: member.totpSecret };
}

/**
 * The server accepts each time step of a secret once, and one step of drift either way
 * (RFC 6238 as decision 026 uses it). Tests that sign the same member in again within 30 seconds
 * take the next step's code, or wait for one: the last step used is kept per secret.
 */
const lastStep = new Map<string, number>();

export async function nextTotpCode(secret: string): Promise<string> {
  for (;;) {
    const now = totpStep(new Date());
    // Never the step before: the clock may pass the next step's start before the server checks.
    const step = Math.max(now, (lastStep.get(secret) ?? -1) + 1);
    if (step <= now + 1) {
      lastStep.set(secret, step);
      return hotp(secret, step);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** From /admin through the provider's staff sign-in page back to the console (no code yet). */
export async function signInStaffPassword(page: Page, email: string): Promise<void> {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/oidc\/interaction\/[\w-]+$/);
  await acceptEssentialCookies(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('DealerPass staff sign-in');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(DEMO_STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/** Types the member's current code into the second-factor page. */
export async function enterTotpCode(page: Page, secret: string): Promise<void> {
  await page.getByLabel(/^6-digit code/).fill(await nextTotpCode(secret));
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * The console sessions of this worker's full sign-ins, by server and role: a later test takes the
 * cookies instead of signing in again (one password, code and redirect chain fewer; and no wait
 * for a fresh time step of the shared demo secret). A session the server no longer knows (signed
 * out, expired) is dropped and the member signs in in full.
 */
const staffSessions = new Map<string, Cookie[]>();

/**
 * Signs a demo staff member in, second factor included, and waits for the console. `fresh` signs
 * in in full even when this worker holds a session for the role: for a test of the sign-in itself.
 */
export async function signInStaff(
  page: Page,
  role: DemoStaffMember['role'],
  { fresh = false }: { fresh?: boolean } = {},
): Promise<void> {
  const member = demoStaff(role);
  const key = `${process.env.E2E_BASE_URL ?? serverUrl(test.info().parallelIndex)} ${role}`;
  const name = page.getByTestId('admin-member-name');
  // Billing and admin land on the overview (R18), support on the account search.
  const landing = page.getByRole('heading', {
    level: 1,
    name: role === 'support' ? 'Accounts' : 'Overview',
  });
  const kept = fresh ? undefined : staffSessions.get(key);
  if (kept) {
    await page.context().addCookies(kept);
    await page.goto('/admin');
    const signInPage = page.getByRole('heading', { level: 1, name: 'DealerPass staff sign-in' });
    await expect(name.or(signInPage)).toBeVisible();
    if (await name.isVisible()) {
      await expect(name).toHaveText(member.name);
      await expect(landing).toBeVisible();
      return;
    }
    staffSessions.delete(key);
  }
  await signInStaffPassword(page, member.email);
  await expect(page.getByRole('heading', { name: 'Enter your sign-in code' })).toBeVisible();
  await enterTotpCode(page, member.totpSecret);
  // Another test may have spent this step of the shared demo secret: then the next one is typed.
  const refused = page.getByRole('alert').filter({ hasText: 'The code was not accepted' });
  await expect(name.or(refused)).toBeVisible();
  if (await refused.isVisible()) await enterTotpCode(page, member.totpSecret);
  await expect(name).toHaveText(member.name);
  await expect(landing).toBeVisible();
  staffSessions.set(key, await page.context().cookies());
}

/**
 * A browser context for another person than the suite's (a dealer a staff test signs up, a
 * visitor who writes to support): its own loopback client address, sent as a balancer would
 * (the e2e server trusts the proxy header), so the per-address limits count it apart.
 */
export function anotherPerson(n: number) {
  return { extraHTTPHeaders: { 'x-forwarded-for': `127.0.19.${n}` } };
}

export const DEALER_PASSWORD = 'Console!Pass2026';

/** A new dealer signs up with the approved sandbox card: the sign-up payment opens its trial (R4). */
export async function signUpDealer(page: Page, email: string): Promise<void> {
  await throughDealership(page, email, ['NADA', 'MMR']);
  await fillCard(page, '4111111111111111');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/signup\/confirmation$/, { timeout: 30_000 });
}

/**
 * Follows the newest verification mail to this address (the development mailbox lists newest
 * first) and sets the password, which signs the dealer in (R6).
 */
export async function setPasswordFromMail(page: Page, email: string): Promise<void> {
  await page.goto('/dev/mailbox');
  const mail = page
    .getByRole('listitem')
    .filter({ hasText: `To ${email}` })
    .filter({ hasText: 'Verify your e-mail' })
    .first();
  await mail.getByText(/Verify your e-mail/).click();
  await mail.getByRole('link', { name: /\/identity\/set-password\?token=/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set your password' })).toBeVisible();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(DEALER_PASSWORD);
  await page.getByLabel('Confirm new password').fill(DEALER_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page).toHaveURL(/\/account(\/profile)?$/);
}

/** Searches the console for an account by its e-mail and opens it (its row, not a look-alike). */
export async function openAccount(page: Page, email: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Accounts' })
    .click();
  await page.getByLabel('Search accounts').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  await accountRow(page, email).getByRole('link').click();
  await expect(page).toHaveURL(/\/admin\/accounts\/[\w-]+$/);
  await expect(page.getByText(email).first()).toBeVisible();
}

/** The search result row whose e-mail is exactly this one. */
export function accountRow(page: Page, email: string) {
  return page
    .getByRole('region', { name: 'Matching accounts' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: email, exact: true }) });
}
