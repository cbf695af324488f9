import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listMailbox } from '../../services/mail/list-mailbox.ts';

/**
 * GET /api/dev/mailbox: the embedded mailbox (DECISIONS R8). Registered only while mail is kept
 * instead of sent, and never on a production server, whatever other flag is set
 * (`config.devMailbox`): it shows every mail to every visitor.
 */
const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/dev/mailbox', { config: { access: 'public' } }, async () => ({
    data: { messages: await listMailbox(app.db) },
  }));
};

export default devRoutes;
