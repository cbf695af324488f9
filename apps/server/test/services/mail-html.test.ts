/**
 * Issue 27 item 11: every e-mail's HTML part, rendered by Chromium at 320 and 1280 pixels in
 * light and dark mode, passes axe (WCAG 2.2 AA and best practices), does not scroll sideways on a
 * small screen, carries no image, and shows hostile values as text. With MAIL_SCREENSHOTS=1 each
 * rendering is saved in test-results/mail-html/ to be looked at.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  priceChangeNoticeMail,
  priceChangeWithdrawalMail,
} from '@dealerpass/domain/billing/price-change';
import { mailText, type IMailContent } from '@dealerpass/domain/mail/mail-content';
import { accountInactiveMail } from '../../src/services/mail/messages/account-inactive-mail.ts';
import { annualBillingMail } from '../../src/services/mail/messages/annual-billing-mail.ts';
import { cardExpiryMail } from '../../src/services/mail/messages/card-expiry-mail.ts';
import { contactNotificationMail } from '../../src/services/mail/messages/contact-notification-mail.ts';
import { contactReplyMail } from '../../src/services/mail/messages/contact-reply-mail.ts';
import { passwordResetMail } from '../../src/services/mail/messages/password-reset-mail.ts';
import { receiptMail } from '../../src/services/mail/messages/receipt-mail.ts';
import { refundMail } from '../../src/services/mail/messages/refund-mail.ts';
import { renewalDeclinedMail } from '../../src/services/mail/messages/renewal-declined-mail.ts';
import { verificationMail } from '../../src/services/mail/messages/verification-mail.ts';
import { renderMailHtml } from '../../src/services/mail/render-mail-html.ts';

const MESSAGES_DIR = fileURLToPath(new URL('../../src/services/mail/messages/', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../../../test-results/mail-html/', import.meta.url));

/** A value that would run, load or break out of an attribute if it were not escaped. */
const HOSTILE = `Sam <script>window.__ran = true</script><img src=x onerror="window.__ran = true"> "O'Brien" & Sons`;
const company = { name: 'DealerPass', supportPhone: '1-800-555-0199' };
const LONG_LINK = `https://dealerpass.example/identity/set-password?token=${'k'.repeat(43)}&forwardTo=%2Flogin%3FreturnTo%3D%252Faccount`;

/** One sample of every message, each from its own content function, hostile values included. */
const SAMPLES: Record<string, { content: IMailContent; automatic: boolean }> = {
  'account-inactive-mail': {
    content: accountInactiveMail({ company, firstName: HOSTILE, owedCents: 13800 }),
    automatic: true,
  },
  'annual-billing-mail': {
    content: annualBillingMail({
      company: company.name,
      subject: `${company.name}: your invoice DP-2026-000017 for annual billing`,
      text: [
        `Hello ${HOSTILE},`,
        '',
        'Your invoice DP-2026-000017 for a year billed annually by check is attached: $1,468.80.',
        'Please send a check payable to DealerPass, with the invoice number on it, to:',
        '  DealerPass',
        '  100 Main Street, Detroit, MI 48226',
      ].join('\n'),
    }),
    automatic: true,
  },
  'card-expiry-mail': {
    content: cardExpiryMail({
      company,
      publicUrl: 'https://dealerpass.example',
      firstName: HOSTILE,
      card: { brand: 'visa', last4: '4242' },
      lastValidDay: { year: 2026, month: 12, day: 31 },
    }),
    automatic: true,
  },
  'contact-notification-mail': {
    content: contactNotificationMail({
      companyName: company.name,
      reference: '0b6f4f0e-5d1c-4a0c-9a63-0c4a3d0e2f11',
      request: {
        fullName: HOSTILE,
        email: 'sam@example.com',
        phoneNumber: '313-555-0100',
        phoneCountry: 'United States',
        queryType: 'Account Update',
        auctionAccessNumber: '',
        source: 'Web',
        comments: `Hello,\n\nMy dealership ${HOSTILE} cannot see its receipts.\nThanks`,
      },
    }),
    automatic: true,
  },
  'contact-reply-mail': {
    content: contactReplyMail({
      company,
      fullName: HOSTILE,
      body: 'Thank you for writing.\nYour receipts are under Billing Details, Payment History.\n\nKind regards',
      comments: `My dealership ${HOSTILE} cannot see its receipts.\n\nThanks`,
    }),
    automatic: false,
  },
  'password-reset-mail': {
    content: passwordResetMail({
      companyName: company.name,
      email: 'sam@example.com',
      link: LONG_LINK,
      ttlMinutes: 60,
    }),
    automatic: true,
  },
  'receipt-mail': {
    content: receiptMail({
      company,
      firstName: HOSTILE,
      amountCents: 13800,
      card: { brand: 'visa', last4: '1111' },
      period: { from: '2026-03-15', to: '2026-04-14' },
      paymentId: '6c1f4c8e-2b0d-4c59-9d7e-3d6b7f1d2a90',
      activationDate: '2026-03-15',
    }),
    automatic: true,
  },
  'refund-mail': {
    content: refundMail({
      company,
      firstName: HOSTILE,
      amountCents: 6900,
      payment: { activationDate: '2026-03-15', cardBrand: 'mastercard', cardLast4: '5454' },
      receiptAttached: true,
    }),
    automatic: true,
  },
  'renewal-declined-mail': {
    content: renewalDeclinedMail({
      company,
      firstName: HOSTILE,
      reason: 'insufficient funds',
      retryDays: 1,
    }),
    automatic: true,
  },
  'verification-mail': {
    content: verificationMail({
      company,
      firstName: HOSTILE,
      link: LONG_LINK,
      priceNotice: [
        'From Dec 27, 2026, your monthly total changes from $68.00 to $73.00.',
        'A price change was announced before you signed up: your first bill on or after that date is charged at the new price.',
      ],
    }),
    automatic: true,
  },
  'price-change-notice (domain)': {
    content: priceChangeNoticeMail({
      company,
      firstName: HOSTILE,
      change: { oldTotalCents: 6800, newTotalCents: 7300, effectiveDate: '2026-12-27' },
    }),
    automatic: true,
  },
  'price-change-withdrawal (domain)': {
    content: priceChangeWithdrawalMail({
      company,
      firstName: HOSTILE,
      change: { oldTotalCents: 6800, newTotalCents: 7300, effectiveDate: '2026-12-27' },
    }),
    automatic: true,
  },
};

describe('the HTML part of every e-mail', () => {
  let browser: Browser;
  /** One page per width and colour scheme, each message loaded into it in turn. */
  const pages = new Map<string, Page>();
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    });
    for (const colorScheme of ['light', 'dark'] as const)
      for (const width of [320, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
        pages.set(`${width}-${colorScheme}`, await context.newPage());
      }
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('has a sample of every message content function', async () => {
    const files = (await readdir(MESSAGES_DIR)).filter((file) => file.endsWith('.ts'));
    for (const file of files) expect(Object.keys(SAMPLES)).toContain(file.replace(/\.ts$/, ''));
  });

  it('escapes every interpolated value: markup in a name is shown as text', () => {
    for (const [name, { content, automatic }] of Object.entries(SAMPLES)) {
      const html = renderMailHtml(content, { automatic });
      expect(html, name).not.toContain('<script>window');
      expect(html, name).not.toContain('<img');
      if (mailText(content).includes(HOSTILE))
        expect(html, name).toContain('Sam &lt;script&gt;window.__ran = true&lt;/script&gt;');
    }
    const branded = renderMailHtml(
      { ...SAMPLES['receipt-mail']!.content, company: '<script>x()</script>Motors' },
      { automatic: true },
    );
    expect(branded).not.toContain('<script>x()');
    // A link that is not web, mail or phone is no link.
    const scripted = renderMailHtml(
      {
        company: 'DealerPass',
        subject: 's',
        heading: 'h',
        blocks: [{ kind: 'action', intro: 'Open:', label: 'Go', href: 'javascript:alert(1)' }],
      },
      { automatic: true },
    );
    expect(scripted).not.toContain('javascript:');
  });

  for (const [name, { content, automatic }] of Object.entries(SAMPLES)) {
    it(`${name}: axe finds nothing at 320 and 1280 px, light and dark; no sideways scroll; no image; the script is inert`, async () => {
      const html = renderMailHtml(content, { automatic });
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [320, 1280]) {
          const page = pages.get(`${width}-${colorScheme}`)!;
          {
            await page.setContent(html, { waitUntil: 'load' });
            // Dark mode changes colours only: its contrast is what is checked again.
            const axe = new AxeBuilder({ page });
            const results = await (
              colorScheme === 'light'
                ? axe.withTags([
                    'wcag2a',
                    'wcag2aa',
                    'wcag21a',
                    'wcag21aa',
                    'wcag22aa',
                    'best-practice',
                  ])
                : axe.withRules(['color-contrast', 'link-in-text-block'])
            ).analyze();
            expect(
              results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
              `${name} ${width}px ${colorScheme}`,
            ).toEqual([]);
            const layout = (await page.evaluate(`({
              scrollWidth: document.documentElement.scrollWidth,
              clientWidth: document.documentElement.clientWidth,
              images: document.images.length,
              lang: document.documentElement.lang,
              headings: document.querySelectorAll('h1').length,
              ran: window.__ran ?? false,
            })`)) as { scrollWidth: number; clientWidth: number };
            expect(layout.scrollWidth, `${name} ${width}px`).toBeLessThanOrEqual(
              layout.clientWidth,
            );
            expect(layout).toMatchObject({ images: 0, lang: 'en', headings: 1, ran: false });
            if (process.env.MAIL_SCREENSHOTS)
              await page.screenshot({
                path: join(SCREENSHOTS, `${name.replace(/\W+/g, '-')}-${width}-${colorScheme}.png`),
                fullPage: true,
              });
          }
        }
      }
    });
  }
});
