import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { AppError } from '../../errors/app-error.ts';
import {
  getMailboxAttachment,
  getMailboxHtml,
  listMailbox,
} from '../../services/mail/list-mailbox.ts';

/**
 * The policy of a kept mail's HTML part, shown as a mail client shows it: the inline styles HTML
 * mail is written with, images only from inside the mail, no script, no form, no frame, no
 * request anywhere (`sandbox` also gives the page an origin of its own). Our pages' policy
 * refuses inline styles, so the part is served on its own with this one.
 */
const MAIL_HTML_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const ZMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  replyTo: z.string().nullable(),
  subject: z.string(),
  text: z.string(),
  /** Where the HTML part is shown on its own (issue 27); null for mail without one. */
  htmlUrl: z.string().nullable(),
  createdAt: z.date(),
  attachments: z.array(
    z.object({ filename: z.string(), contentType: z.string(), url: z.string() }),
  ),
});

/**
 * GET /api/dev/mailbox: the embedded mailbox (DECISIONS R8). Registered only while mail is kept
 * instead of sent, and never on a production server, whatever other flag is set
 * (`config.devMailbox`): it shows every mail to every visitor. Its attachments (a receipt
 * e-mail's PDF) are downloaded one by one.
 */
const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/dev/mailbox',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'listDevMail',
        summary: 'The mails kept in the development mailbox, newest first',
        tags: ['Sandbox: development mailbox'],
        response: { 200: z.object({ data: z.object({ messages: z.array(ZMailSchema) }) }) },
      },
    },
    async () => ({ data: { messages: await listMailbox(app.db, app.config.billing.timeZone) } }),
  );

  app.get(
    '/api/dev/mailbox/:mailId/html',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getDevMailHtml',
        summary: 'The HTML part of a kept mail, as a mail client shows it',
        tags: ['Sandbox: development mailbox'],
        errors: [404],
        response: { 200: { content: { 'text/html': { schema: z.string() } } } },
        params: z.object({ mailId: z.uuid() }),
      },
    },
    async (request, reply) => {
      const html = await getMailboxHtml(app.db, request.params.mailId);
      if (html === null) throw new AppError(ERROR_CODES.NOT_FOUND);
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', MAIL_HTML_POLICY)
        .header('cache-control', 'no-store')
        .send(html);
    },
  );

  app.get(
    '/api/dev/mailbox/:mailId/attachments/:filename',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getDevMailAttachment',
        summary: 'One attachment of a kept mail (a receipt PDF)',
        tags: ['Sandbox: development mailbox'],
        errors: [404],
        response: {
          200: {
            content: { 'application/pdf': { schema: z.unknown().meta({ format: 'binary' }) } },
          },
        },
        params: z.object({ mailId: z.uuid(), filename: z.string().min(1).max(200) }),
      },
    },
    async (request, reply) => {
      const { mailId, filename } = request.params;
      const attachment = await getMailboxAttachment(
        app.db,
        mailId,
        filename,
        app.config.billing.timeZone,
      );
      if (!attachment) throw new AppError(ERROR_CODES.NOT_FOUND);
      return reply
        .header('content-type', attachment.contentType)
        .header('content-disposition', `attachment; filename="${attachment.filename}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(attachment.content));
    },
  );
};

export default devRoutes;
