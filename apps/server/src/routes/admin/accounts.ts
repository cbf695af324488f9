import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAccountSearchQuerySchema,
  ZAuditExportQuerySchema,
} from '@dealerpass/domain/admin/console-requests';
import {
  ZAccountSearchResultSchema,
  ZStaffAccountDetailSchema,
  ZTimelineEntrySchema,
} from '@dealerpass/domain/admin/console-views';
import { exportStaffAudit } from '../../services/admin/audit/export-staff-audit.ts';
import { getAccountDetail } from '../../services/admin/accounts/get-account-detail.ts';
import { getAccountReceipt } from '../../services/admin/accounts/get-account-receipt.ts';
import { getAccountTimeline } from '../../services/admin/accounts/get-account-timeline.ts';
import { searchAccounts } from '../../services/admin/accounts/search-accounts.ts';

/** Reading accounts is every staff role's work (R12: support and up). */
const SUPPORT = { access: { staff: 'support' } } as const;

const ZAccountParamsSchema = z.strictObject({ userId: z.uuid() });
const ZReceiptParamsSchema = z.strictObject({ userId: z.uuid(), paymentId: z.uuid() });

const ZPdfResponse = {
  description: 'A PDF receipt',
  content: { 'application/pdf': { schema: z.unknown().meta({ format: 'binary' }) } },
};
const ZCsvResponse = {
  description: 'The staff audit as CSV (RFC 4180)',
  content: { 'text/csv': { schema: z.string() } },
};

/**
 * The operator console's read side of accounts (R12, docs/decisions/026): search, the account
 * page, its timeline, a payment's receipt, and the staff audit as CSV. Every answer is `no-store`
 * (security headers, /api/*) and none carries a secret: the response schemas list what may leave.
 */
const adminAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/accounts',
    {
      config: SUPPORT,
      schema: {
        operationId: 'searchAccounts',
        summary:
          'Search accounts by e-mail, name, dealership, user id, card last four or payment id',
        tags: ['Admin'],
        querystring: ZAccountSearchQuerySchema,
        response: { 200: z.object({ data: z.array(ZAccountSearchResultSchema) }) },
      },
    },
    async (request) => ({ data: await searchAccounts(app.db, request.query.q) }),
  );

  app.get(
    '/api/admin/accounts/:userId',
    {
      config: SUPPORT,
      schema: {
        operationId: 'getAccount',
        summary: 'An account as staff see it: profile, status, billing, sessions, e-mails',
        tags: ['Admin'],
        errors: [404],
        params: ZAccountParamsSchema,
        response: { 200: z.object({ data: ZStaffAccountDetailSchema }) },
      },
    },
    async (request) => ({
      data: await getAccountDetail(app.db, request.params.userId, {
        now: app.now(),
        timeZone: app.config.billing.timeZone,
      }),
    }),
  );

  app.get(
    '/api/admin/accounts/:userId/timeline',
    {
      config: SUPPORT,
      schema: {
        operationId: 'getAccountTimeline',
        summary: 'Everything that happened to an account, newest first',
        tags: ['Admin'],
        errors: [404],
        params: ZAccountParamsSchema,
        response: { 200: z.object({ data: z.array(ZTimelineEntrySchema) }) },
      },
    },
    async (request) => ({ data: await getAccountTimeline(app.db, request.params.userId) }),
  );

  app.get(
    '/api/admin/accounts/:userId/payments/:paymentId/receipt',
    {
      config: SUPPORT,
      schema: {
        operationId: 'getAccountReceipt',
        summary: 'The stored PDF receipt of one of the account’s payments',
        tags: ['Admin'],
        // 404: no such payment of this account.
        errors: [404],
        params: ZReceiptParamsSchema,
        response: { 200: ZPdfResponse },
      },
    },
    async (request, reply) => {
      const { userId, paymentId } = request.params;
      const receipt = await getAccountReceipt(app.db, userId, paymentId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${receipt.fileName}"`)
        .send(receipt.pdf);
    },
  );

  app.get(
    '/api/admin/audit.csv',
    {
      config: SUPPORT,
      schema: {
        operationId: 'exportStaffAudit',
        summary: 'The staff audit as CSV, for one account or all, in an optional time window',
        tags: ['Admin'],
        querystring: ZAuditExportQuerySchema,
        response: { 200: ZCsvResponse },
      },
    },
    async (request, reply) => {
      const exported = await exportStaffAudit(app.db, request.query);
      const name = request.query.userId ? `staff-audit-${request.query.userId}` : 'staff-audit';
      request.log.info({ rows: exported.rows, truncated: exported.truncated }, 'audit export');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}.csv"`)
        .header('x-export-truncated', String(exported.truncated))
        .send(exported.csv);
    },
  );
};

export default adminAccountRoutes;
