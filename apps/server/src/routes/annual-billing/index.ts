import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import {
  ZAnnualBillingDealerRequestSchema,
  ZAnnualBillingStateSchema,
  ZInvoiceParamsSchema,
  ZInvoiceQueueQuerySchema,
  ZInvoiceQueueSchema,
  ZInvoiceResultSchema,
  ZRecordCheckRequestSchema,
  ZResendInvoiceRequestSchema,
  ZReturnedCheckRequestSchema,
  ZStaffAnnualBillingRequestSchema,
  ZStaffInvoiceParamsSchema,
  ZVoidOwnInvoiceRequestSchema,
} from '@dealerpass/domain/schemas/annual-billing';
import { STAFF_ACTIONS, type TStaffAction } from '@dealerpass/domain/admin/roles';
import { sessionOf } from '../../plugins/session.ts';
import { staffOf } from '../../plugins/staff-session.ts';
import {
  getAnnualBilling,
  getInvoicePdf,
  listOpenInvoices,
} from '../../services/annual-billing/get-annual-billing.ts';
import { recordCheck } from '../../services/annual-billing/record-check.ts';
import { requestAnnualBilling } from '../../services/annual-billing/request-annual-billing.ts';
import { resendInvoice } from '../../services/annual-billing/resend-invoice.ts';
import { returnCheck } from '../../services/annual-billing/return-check.ts';
import { voidInvoice } from '../../services/annual-billing/void-invoice.ts';

/** Billing Details' calls: an account that may open that page (decision 014's page rule). */
const BILLING = { access: { page: ACCOUNT_ROUTES.billing } } as const;
/** Reading is every staff role's work; writing is billing's and admin's (R12, R14). */
const STAFF_READ = { access: { staff: 'support' } } as const;
const accessFor = (action: TStaffAction) => ({ access: { staff: STAFF_ACTIONS[action] } });

const ACCOUNT = '/api/admin/accounts/:userId';
const ZAccountParamsSchema = z.strictObject({ userId: z.uuid() });
const INVOICE_RESULT = z.object({ data: ZInvoiceResultSchema });
const ZPdfResponse = {
  description: 'The invoice as a PDF, as it was issued',
  content: { 'application/pdf': { schema: z.unknown().meta({ format: 'binary' }) } },
};

/**
 * Annual payment by check with the 10 % discount (R14, issue 28; docs/annual-billing-api.md):
 * the dealer's offer, request, "Keep paying monthly by card" and invoice PDFs (the session's own
 * account only: no route takes a user id), and the console's queue, set-up on the dealer's
 * behalf, void, resend, check and returned check. Every write is once per request key
 * (`oncePerKey`, decision 031) and locks the account first (decision 028); every JSON answer is
 * `{ data }`.
 */
const annualBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const sent = () => void app.mail.kick().catch(() => undefined);
  const actor = (request: FastifyRequest) => {
    const staff = staffOf(request);
    return { staffId: staff.staffId, email: staff.email };
  };
  const pdf = (reply: FastifyReply, invoice: { number: string; pdf: Buffer }) =>
    reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${invoice.number}.pdf"`)
      .send(invoice.pdf);

  // ------------------------------------------------------------------ dealer

  app.get(
    '/api/users/annualBilling',
    {
      config: BILLING,
      schema: {
        operationId: 'getAnnualBilling',
        summary:
          'Annual billing by check: the offer (or why not), the open invoice, the year paid, every invoice',
        tags: ['Annual billing'],
        response: { 200: z.object({ data: ZAnnualBillingStateSchema }) },
      },
    },
    async (request) => ({
      data: await getAnnualBilling(app.db, app.deps.billing, sessionOf(request).userId),
    }),
  );

  app.post(
    '/api/users/annualBilling',
    {
      config: BILLING,
      bodyLimit: 1024,
      schema: {
        operationId: 'requestAnnualBilling',
        summary: 'Pay annually by check and save 10%: issues and e-mails the invoice',
        tags: ['Annual billing'],
        // 409: not eligible now (ANNUAL_NOT_AVAILABLE, the message says why), the offer changed
        // since the page showed it (ANNUAL_OFFER_CHANGED), or the key reused.
        errors: [409],
        body: ZAnnualBillingDealerRequestSchema,
        response: { 201: INVOICE_RESULT },
      },
    },
    async (request, reply) => {
      const invoice = await requestAnnualBilling(app.db, app.deps.billing, {
        userId: sessionOf(request).userId,
        now: app.now(),
        body: request.body,
        params: {},
      });
      sent();
      return reply.code(201).send({ data: { invoice } });
    },
  );

  app.post(
    '/api/users/annualBilling/invoices/:invoiceId/void',
    {
      config: BILLING,
      bodyLimit: 1024,
      schema: {
        operationId: 'voidOwnInvoice',
        summary: 'Keep paying monthly by card: voids the open invoice and e-mails the dealer',
        tags: ['Annual billing'],
        // 404: no such invoice of this account; 409: not open (INVOICE_NOT_OPEN), or key reused.
        errors: [404, 409],
        params: ZInvoiceParamsSchema,
        body: ZVoidOwnInvoiceRequestSchema,
        response: { 200: INVOICE_RESULT },
      },
    },
    async (request) => {
      const invoice = await voidInvoice(app.db, app.deps.billing, {
        userId: sessionOf(request).userId,
        invoiceId: request.params.invoiceId,
        now: app.now(),
        body: request.body,
        params: request.params,
      });
      sent();
      return { data: { invoice } };
    },
  );

  app.get(
    '/api/users/annualBilling/invoices/:invoiceId/pdf',
    {
      config: BILLING,
      schema: {
        operationId: 'getOwnInvoicePdf',
        summary: 'One of the account’s own invoices as a PDF',
        tags: ['Annual billing'],
        errors: [404],
        params: ZInvoiceParamsSchema,
        response: { 200: ZPdfResponse },
      },
    },
    async (request, reply) =>
      pdf(reply, await getInvoicePdf(app.db, sessionOf(request).userId, request.params.invoiceId)),
  );

  // ------------------------------------------------------------------ console

  app.get(
    '/api/admin/invoices',
    {
      config: STAFF_READ,
      schema: {
        operationId: 'listInvoicesDue',
        summary: 'Invoices due: every open annual invoice, overdue ones first, then by due date',
        tags: ['Admin'],
        querystring: ZInvoiceQueueQuerySchema,
        response: { 200: z.object({ data: ZInvoiceQueueSchema }) },
      },
    },
    async () => ({
      data: { invoices: await listOpenInvoices(app.db, app.deps.billing) },
    }),
  );

  app.get(
    `${ACCOUNT}/invoices/:invoiceId/pdf`,
    {
      config: STAFF_READ,
      schema: {
        operationId: 'getAccountInvoicePdf',
        summary: 'One of the account’s invoices as a PDF, as the dealer received it',
        tags: ['Admin'],
        errors: [404],
        params: ZStaffInvoiceParamsSchema,
        response: { 200: ZPdfResponse },
      },
    },
    async (request, reply) =>
      pdf(reply, await getInvoicePdf(app.db, request.params.userId, request.params.invoiceId)),
  );

  app.post(
    `${ACCOUNT}/annual-billing`,
    {
      config: accessFor('requestAnnualBilling'),
      bodyLimit: 4096,
      schema: {
        operationId: 'setUpAnnualBilling',
        summary: 'Set up annual billing by check on the dealer’s behalf, with a reason',
        tags: ['Admin'],
        // 404: no such account; 409: not eligible (the message says why), or the key reused.
        errors: [404, 409],
        params: ZAccountParamsSchema,
        body: ZStaffAnnualBillingRequestSchema,
        response: { 201: INVOICE_RESULT },
      },
    },
    async (request, reply) => {
      const invoice = await requestAnnualBilling(app.db, app.deps.billing, {
        userId: request.params.userId,
        now: app.now(),
        body: request.body,
        params: request.params,
        staff: { actor: actor(request), reason: request.body.reason },
      });
      sent();
      return reply.code(201).send({ data: { invoice } });
    },
  );

  app.post(
    `${ACCOUNT}/invoices/:invoiceId/void`,
    {
      config: accessFor('voidInvoice'),
      bodyLimit: 4096,
      schema: {
        operationId: 'voidInvoice',
        summary: 'Void an open invoice, with a reason; the dealer is e-mailed',
        tags: ['Admin'],
        errors: [404, 409],
        params: ZStaffInvoiceParamsSchema,
        body: ZStaffAnnualBillingRequestSchema,
        response: { 200: INVOICE_RESULT },
      },
    },
    async (request) => {
      const invoice = await voidInvoice(app.db, app.deps.billing, {
        userId: request.params.userId,
        invoiceId: request.params.invoiceId,
        now: app.now(),
        body: request.body,
        params: request.params,
        staff: { actor: actor(request), reason: request.body.reason },
      });
      sent();
      return { data: { invoice } };
    },
  );

  app.post(
    `${ACCOUNT}/invoices/:invoiceId/resend`,
    {
      config: accessFor('resendInvoice'),
      bodyLimit: 1024,
      schema: {
        operationId: 'resendInvoice',
        summary: 'Send the invoice’s e-mail again, its PDF attached',
        tags: ['Admin'],
        errors: [404, 409],
        params: ZStaffInvoiceParamsSchema,
        body: ZResendInvoiceRequestSchema,
        response: { 200: INVOICE_RESULT },
      },
    },
    async (request) => {
      const invoice = await resendInvoice(app.db, app.deps.billing, {
        userId: request.params.userId,
        invoiceId: request.params.invoiceId,
        now: app.now(),
        body: request.body,
        params: request.params,
        actor: actor(request),
      });
      sent();
      return { data: { invoice } };
    },
  );

  app.post(
    `${ACCOUNT}/invoices/:invoiceId/check`,
    {
      config: accessFor('recordCheck'),
      bodyLimit: 2048,
      schema: {
        operationId: 'recordCheck',
        summary:
          'Record a check for an open invoice: the annual period starts, the receipt is stored and e-mailed',
        tags: ['Admin'],
        // 409: the amount is not what the invoice leaves open (CHECK_AMOUNT_MISMATCH, the message
        // names it), the invoice is not open (INVOICE_NOT_OPEN), its period was billed by card
        // (ANNUAL_PERIOD_BILLED), the account is inactive or pending reactivation
        // (ANNUAL_NOT_AVAILABLE: its invoice is reissued when it reactivates, decision 054), or
        // the key reused.
        errors: [404, 409],
        params: ZStaffInvoiceParamsSchema,
        body: ZRecordCheckRequestSchema,
        response: { 200: INVOICE_RESULT },
      },
    },
    async (request) => {
      const invoice = await recordCheck(app.db, app.deps.billing, {
        userId: request.params.userId,
        invoiceId: request.params.invoiceId,
        now: app.now(),
        body: request.body,
        params: request.params,
        actor: actor(request),
      });
      sent();
      return { data: { invoice } };
    },
  );

  app.post(
    `${ACCOUNT}/invoices/:invoiceId/check/returned`,
    {
      config: accessFor('returnedCheck'),
      bodyLimit: 4096,
      schema: {
        operationId: 'recordReturnedCheck',
        summary:
          'Record that the invoice’s check was returned: the payment is reversed, the amount owed, the card retried (R4)',
        tags: ['Admin'],
        // 409: no standing check on the invoice, or its year is over (CHECK_NOT_RETURNABLE).
        errors: [404, 409],
        params: ZStaffInvoiceParamsSchema,
        body: ZReturnedCheckRequestSchema,
        response: { 200: INVOICE_RESULT },
      },
    },
    async (request) => {
      const invoice = await returnCheck(app.db, app.deps.billing, {
        userId: request.params.userId,
        invoiceId: request.params.invoiceId,
        now: app.now(),
        body: request.body,
        params: request.params,
        actor: actor(request),
      });
      sent();
      return { data: { invoice } };
    },
  );
};

export default annualBillingRoutes;
