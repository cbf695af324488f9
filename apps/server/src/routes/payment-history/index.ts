import { z } from 'zod';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import {
  PDF_ZIP_LIMITS,
  ZPaymentHistoryQuerySchema,
  ZPaymentSchema,
  ZPdfZipRequestSchema,
} from '@dealerpass/domain/schemas/payment-history';
import { AppError } from '../../errors/app-error.ts';
import { checkHistoryYear } from '../../services/payment-history/check-history-year.ts';
import { getPaymentHistory } from '../../services/payment-history/get-payment-history.ts';
import { yearReceiptsZip } from '../../services/payment-history/year-receipts-zip.ts';
import {
  PDF_ZIP_MESSAGES,
  zipFromBase64Pdfs,
} from '../../services/receipts/zip-from-base64-pdfs.ts';
import { sessionOf } from '../../plugins/session.ts';

/** Billing Details' calls: any account that may open that page (an inactive one too, not blocked). */
const BILLING = { page: ACCOUNT_ROUTES.billing } as const;

const ZPaymentHistoryResponseSchema = z.object({
  data: z.object({ payments: z.array(ZPaymentSchema) }),
});

/** A zip file, streamed. */
const ZZipResponse = {
  description: 'A zip file',
  content: { 'application/zip': { schema: z.unknown().meta({ format: 'binary' }) } },
};

/**
 * R9's 10 MB of PDFs as base64 (4 characters per 3 bytes, plus each file's padding) and room
 * for the names and the JSON around them: a body any larger cannot be a valid request.
 */
export const PDF_ZIP_BODY_LIMIT =
  Math.ceil(PDF_ZIP_LIMITS.maxTotalBytes / 3) * 4 + PDF_ZIP_LIMITS.maxFiles * 4 + 16 * 1024;

/**
 * Payment history and receipts (000 §3, §4, §7; DECISIONS R9): the year's payments with their
 * receipts, the year's receipts as one zip, and the compatibility zip of PDFs the browser sends.
 * Signed-in only, and only the session's own payments: no route takes a user id.
 *
 * The session and the account check run first (route-access.ts, onRequest), before a body is
 * read or a query validated, so an anonymous caller cannot make the server parse 14 MB of base64. Every answer
 * is `no-store` (security headers, /api/*).
 */
const paymentHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/users/paymentHistory',
    {
      config: { access: BILLING },
      schema: {
        operationId: 'getPaymentHistory',
        summary: 'The payments of one year, with their receipts',
        tags: ['Payment history'],
        querystring: ZPaymentHistoryQuerySchema,
        response: { 200: ZPaymentHistoryResponseSchema },
      },
    },
    async (request) => {
      const { year } = request.query;
      checkHistoryYear(year, app.now(), app.config.billing.timeZone);
      const payments = await getPaymentHistory(app.db, {
        userId: sessionOf(request).userId,
        year,
        timeZone: app.config.billing.timeZone,
        company: app.config.company,
      });
      return { data: { payments } };
    },
  );

  app.get(
    '/api/users/paymentHistory/receipts.zip',
    {
      config: { access: BILLING },
      schema: {
        operationId: 'getReceiptsZip',
        summary: 'The receipts of one year as one zip of PDFs',
        tags: ['Payment history'],
        // 404: the year has no receipts.
        errors: [404],
        querystring: ZPaymentHistoryQuerySchema,
        response: { 200: ZZipResponse },
      },
    },
    async (request, reply) => {
      const { year } = request.query;
      checkHistoryYear(year, app.now(), app.config.billing.timeZone);
      const download = await yearReceiptsZip(app.db, {
        userId: sessionOf(request).userId,
        year,
        supportPhone: app.config.company.supportPhone,
      });
      request.log.info({ year, receipts: download.entryNames.length }, 'year receipts zip');
      return reply.headers(download.headers).send(download.stream);
    },
  );

  app.post(
    '/api/pdf/zip',
    {
      schema: {
        operationId: 'zipPdfs',
        summary: 'A zip of the PDFs the browser sends (base64), for the older web app',
        tags: ['Payment history'],
        body: ZPdfZipRequestSchema,
        response: { 200: ZZipResponse },
      },
      bodyLimit: PDF_ZIP_BODY_LIMIT,
      // Each call may decode 10 MB: fewer than the global limit allows.
      config: { access: BILLING, rateLimit: { max: 30, timeWindow: '1 minute' } },
      // R9: anything beyond the limits is a 400, also a body too large to be read at all.
      errorHandler: (error: FastifyError) => {
        if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
        throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
          errors: [{ source: 'pdfBlobs', message: PDF_ZIP_MESSAGES.tooLarge }],
        });
      },
    },
    async (request, reply) => {
      const download = zipFromBase64Pdfs(request.body, {
        now: app.now(),
        timeZone: app.config.billing.timeZone,
      });
      request.log.info({ files: download.entryNames.length }, 'compatibility zip');
      return reply.headers(download.headers).send(download.stream);
    },
  );
};

export default paymentHistoryRoutes;
