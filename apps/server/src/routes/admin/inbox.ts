import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZContactMessagesQuerySchema,
  ZContactReplyRequestSchema,
} from '@dealerpass/domain/admin/console-requests';
import {
  ZContactMessageSchema,
  ZContactMessageSummarySchema,
} from '@dealerpass/domain/admin/business-views';
import { staffOf } from '../../plugins/staff-session.ts';
import {
  getContactMessage,
  listContactMessages,
} from '../../services/admin/inbox/contact-inbox.ts';
import { replyToContact } from '../../services/admin/inbox/reply-to-contact.ts';

const ZMessageParamsSchema = z.strictObject({ id: z.uuid() });

/** The Contact Us inbox (R12): support reads the messages and answers them by e-mail. */
const contactInboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const SUPPORT = { access: { staff: 'support' } } as const;

  app.get(
    '/api/admin/contact-messages',
    {
      config: SUPPORT,
      schema: {
        operationId: 'listContactMessages',
        summary: 'Contact Us messages, newest first, new or answered',
        tags: ['Admin'],
        querystring: ZContactMessagesQuerySchema,
        response: { 200: z.object({ data: z.array(ZContactMessageSummarySchema) }) },
      },
    },
    async (request) => ({ data: await listContactMessages(app.db, request.query.status) }),
  );

  app.get(
    '/api/admin/contact-messages/:id',
    {
      config: SUPPORT,
      schema: {
        operationId: 'getContactMessage',
        summary: 'One Contact Us message with its replies',
        tags: ['Admin'],
        errors: [404],
        params: ZMessageParamsSchema,
        response: { 200: z.object({ data: ZContactMessageSchema }) },
      },
    },
    async (request) => ({ data: await getContactMessage(app.db, request.params.id) }),
  );

  app.post(
    '/api/admin/contact-messages/:id/reply',
    {
      config: SUPPORT,
      bodyLimit: 32 * 1024,
      schema: {
        operationId: 'replyToContactMessage',
        summary: 'Reply to a Contact Us message: e-mailed to the sender, stored, marked answered',
        tags: ['Admin'],
        // 409: the request key was another action's (ACTION_NOT_ALLOWED).
        errors: [404, 409],
        params: ZMessageParamsSchema,
        body: ZContactReplyRequestSchema,
        response: {
          200: z.object({ data: z.object({ auditId: z.number().int(), replyId: z.string() }) }),
        },
      },
    },
    async (request) => {
      const result = await replyToContact(
        app.deps.billing,
        staffOf(request),
        request.params.id,
        request.body,
      );
      void app.mail.kick().catch(() => undefined);
      return { data: result };
    },
  );
};

export default contactInboxRoutes;
