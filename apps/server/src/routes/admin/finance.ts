import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ACTIONS } from '@dealerpass/domain/admin/roles';
import { ZFinanceExportQuerySchema } from '@dealerpass/domain/admin/finance-export';
import { staffOf } from '../../plugins/staff-session.ts';
import {
  financeRangeOf,
  streamFinanceExport,
} from '../../services/admin/finance/export-finance.ts';
import { writeStaffAudit } from '../../services/admin/audit/staff-audit.ts';

const ZCsvResponse = {
  description: 'Every money movement of the range as CSV (RFC 4180, UTF-8, a header row)',
  content: { 'text/csv': { schema: z.string() } },
};

/**
 * The finance export (issue 29): payments, refunds and chargebacks of a month or a range of
 * business dates as CSV, for billing and admin. Audited as the staff audit's export is read:
 * the member, the range, and (in the log) the rows that went out.
 */
const financeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/finance/movements.csv',
    {
      config: { access: { staff: STAFF_ACTIONS.exportFinance } },
      schema: {
        operationId: 'exportFinanceMovements',
        summary:
          'Payments, refunds and chargebacks of a month or a range of business dates, as CSV, streamed',
        tags: ['Admin'],
        querystring: ZFinanceExportQuerySchema,
        response: { 200: ZCsvResponse },
      },
    },
    async (request, reply) => {
      const range = financeRangeOf(request.query, app.config.billing.timeZone);
      const staff = staffOf(request);
      // Who took which money out of the building, before a byte of it leaves (R12).
      const audit = await writeStaffAudit(app.db, {
        actor: { staffId: staff.staffId, email: staff.email },
        action: 'exportFinance',
        after: { from: range.from, to: range.to },
        at: app.now(),
      });
      // PostgreSQL reads the range's two halves at once; PGlite is one connection.
      const { stream, done } = streamFinanceExport(app.db, range, {
        readers: app.database.engine === 'postgres' ? 2 : 1,
      });
      done.then(
        (rows) => request.log.info({ rows, auditId: audit.id, ...range }, 'finance export'),
        (error: unknown) =>
          request.log.warn({ err: error, auditId: audit.id }, 'finance export stopped'),
      );
      return (
        reply
          .headers({
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="dealerpass-money-${range.from}-to-${range.to}.csv"`,
          })
          // The documented body is CSV text; it leaves as a stream of it (Fastify sends a Readable).
          .send(stream as unknown as string)
      );
    },
  );
};

export default financeRoutes;
