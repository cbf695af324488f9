import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema.ts';
import { dispatchPendingMail } from '../../src/services/mail/dispatch-pending-mail.ts';
import { enqueueMail } from '../../src/services/mail/enqueue-mail.ts';
import { contactReplyMail } from '../../src/services/mail/messages/contact-reply-mail.ts';
import { createSmtpTransport } from '../../src/adapters/mail/smtp-transport.ts';
import { createIdentity } from '../../src/services/identity/create-identity.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { startSmtpServer } from '../support/smtp-double.ts';

describe('mail through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  // Real time plus an offset the test moves: outbox rows are stamped by the database's clock.
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://dealers.dealerpass.example' },
      now,
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** A second dispatcher, as a second server instance would run. */
  const dispatchElsewhere = () =>
    dispatchPendingMail({
      db: t.app.db,
      transport: createSmtpTransport(smtp.url),
      from: t.app.config.mail.from,
      now,
      log: t.app.log,
      timeZone: t.app.config.billing.timeZone,
    });

  it('delivers the Contact Us mail to support and marks it sent; the dev mailbox does not exist', async () => {
    const browser = await t.browser();
    const response = await browser.request({
      method: 'POST',
      url: '/api/v2/contactUs',
      payload: {
        fullName: 'Sam Smtp',
        email: 'sam@example.com',
        phoneCountry: 'Mexico',
        phoneNumber: '5512345678',
        queryType: 'Other',
        comments: 'Testing the real mail path.',
        recaptcha: await t.solveCaptcha(),
        source: 'Web',
      },
    });
    expect(response.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).statusCode).toBe(404);

    // The request kicked the app's dispatcher; wait for that run.
    await t.app.mail.kick();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.to).toEqual(['support@dealerpass.example']);
    expect(smtp.received[0]?.raw).toContain('Subject: Contact Us: Other from Sam Smtp');
    expect(smtp.received[0]?.raw).toContain('Reply-To: sam@example.com');
    // Issue 27 item 11: greeted with the public host name, marked automatic, text with HTML.
    expect(smtp.received[0]?.greeting).toBe('dealers.dealerpass.example');
    const parsed = await simpleParser(smtp.received[0]!.raw);
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(parsed.text).toContain('Reason: Other');
    expect(parsed.html).toContain('<strong>Reason:</strong> Other');
    expect(parsed.html).toContain('Testing the real mail path.');
    const rows = await t.app.db.select().from(mailOutbox);
    expect(rows.map((row) => row.status)).toEqual(['sent']);
    expect(await dispatchElsewhere()).toEqual({ sent: 0, failed: 0 }); // nothing is sent twice
  });

  it('keeps no reset link once the mail has gone: the outbox row is scrubbed after the send (issue 13)', async () => {
    await createIdentity(t.app.db, { email: 'reset-smtp@example.com', password: 'Old!Password1' });
    const browser = await t.browser();
    const response = await browser.request({
      method: 'POST',
      url: '/api/identity/password/forgot',
      payload: { email: 'reset-smtp@example.com', recaptcha: await t.solveCaptcha() },
    });
    expect(response.statusCode).toBe(200);
    await t.app.mail.kick();
    const delivered = smtp.received.find((mail) => mail.to.includes('reset-smtp@example.com'));
    // The link left the building (quoted-printable may fold the line: unfold before matching).
    const token = /token=3D([\w-]{43})/.exec(delivered?.raw.replace(/=\r?\n/g, '') ?? '')?.[1];
    expect(token).toBeDefined();
    const [row] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'reset-smtp@example.com'));
    expect(row).toMatchObject({ status: 'sent', htmlBody: null });
    expect(row?.subject).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(token!);
    expect(row?.textBody).not.toMatch(/token=/);
  });

  it('a reply written by a person is not marked automatic (decision 044)', async () => {
    await enqueueMail(
      t.app.db,
      {
        to: 'dealer-reply@example.com',
        content: contactReplyMail({
          company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
          fullName: 'Dana Dealer',
          body: 'Your receipts are under Billing Details.',
          comments: 'Where are my receipts?',
        }),
        automatic: false,
      },
      'smtp',
    );
    // The row is due from the database's now(), which has microseconds; the dispatcher's clock
    // has whole milliseconds and can still be in that one (a fast machine was): one later, it is due.
    offsetMs += 1;
    expect(await dispatchElsewhere()).toEqual({ sent: 1, failed: 0 });
    const parsed = await simpleParser(smtp.received.at(-1)!.raw);
    expect(parsed.to).toMatchObject({ text: 'dealer-reply@example.com' });
    expect(parsed.headers.has('auto-submitted')).toBe(false);
    expect(parsed.text).toContain('> Where are my receipts?');
    expect(parsed.html).toContain('<blockquote');
    expect(parsed.html).toContain('This e-mail was sent by DealerPass.');
  });

  it('a mail given up after its last attempt keeps no body either', async () => {
    await t.app.db.insert(mailOutbox).values({
      toAddress: 'gone@example.com',
      subject: 'Last try',
      textBody: 'https://localhost:3000/identity/reset-password?token=last-try-secret',
      status: 'pending',
      attempts: 5,
      nextAttemptAt: now(),
    });
    smtp.setRefuse(true);
    try {
      expect(await dispatchElsewhere()).toEqual({ sent: 0, failed: 1 });
    } finally {
      smtp.setRefuse(false);
    }
    const [row] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Last try'));
    expect(row).toMatchObject({ status: 'failed', attempts: 6, textBody: '', htmlBody: null });
    expect(row?.lastError).toContain('mailbox unavailable');
  });

  it('retries a refused mail later with backoff, then delivers it', async () => {
    await t.app.db.insert(mailOutbox).values({
      toAddress: 'a@example.com',
      subject: 'Retry me',
      textBody: 'x',
      status: 'pending',
      // Due on the dispatcher's clock: the database's own now() has microseconds, so within the
      // same millisecond it could be later than the dispatcher's `now` and not yet due.
      nextAttemptAt: now(),
    });
    smtp.setRefuse(true);
    expect(await dispatchElsewhere()).toEqual({ sent: 0, failed: 1 });
    const [failedOnce] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Retry me'));
    expect(failedOnce).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failedOnce?.lastError).toContain('mailbox unavailable');
    expect(await dispatchElsewhere()).toEqual({ sent: 0, failed: 0 }); // not due yet

    smtp.setRefuse(false);
    offsetMs += 61_000;
    expect(await dispatchElsewhere()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received.at(-1)?.raw).toContain('Subject: Retry me');
    const [sent] = await t.app.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Retry me'));
    expect(sent).toMatchObject({ status: 'sent', textBody: '' });
  });
});
