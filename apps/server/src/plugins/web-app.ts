import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import type { TPriceTable } from '@dealerpass/domain/prices';
import { setPagePolicy } from './security-headers.ts';
import type { WebDev } from './web-dev.ts';

/** The id of the page's price table element; the web app reads it (apps/web/src/lib/price-table.ts). */
const PRICE_TABLE_ELEMENT_ID = 'dp-prices';

/** Where the head of index.html receives the per-response meta tags. */
const HEAD_MARKER = '<!--app-head-->';

/** Used when the web app has not been built: the API still works, and the page says what to do. */
const FALLBACK_TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>DealerPass</title>${HEAD_MARKER}</head><body><main><h1>DealerPass</h1><p>The web app is not built yet: run <code>npm run build</code>.</p></main></body></html>`;

/**
 * Serves the built single-page app and everything it needs on the same port as the API:
 * hashed assets with a year-long cache, and for every other non-API path index.html with this
 * browser's CSRF token, the referrer origin and the public configuration in meta tags (001 §7).
 */
export default fp(
  async (app, options: { webRoot: string | null; webDev?: WebDev | undefined }) => {
    const dev = options.webDev;
    // Under `npm run dev` the page comes from Vite (web-dev.ts), not from a build.
    const webRoot =
      !dev && options.webRoot && existsSync(join(options.webRoot, 'index.html'))
        ? options.webRoot
        : null;
    const template = webRoot
      ? readFileSync(join(webRoot, 'index.html'), 'utf8')
      : FALLBACK_TEMPLATE;
    if (!template.includes(HEAD_MARKER))
      throw new Error(`index.html lacks the ${HEAD_MARKER} marker`);

    const publicConfig = JSON.stringify({
      companyName: app.config.company.name,
      // Sign-up page 1 refuses this domain beside the other e-mail checks (R1).
      companyEmailDomain: app.config.company.emailDomain,
      supportPhone: app.config.company.supportPhone,
      launchAppUrl: app.config.company.launchAppUrl,
      captcha: app.captcha.publicConfig(),
      payments: app.payments.publicConfig(),
      sandboxes: app.config.sandboxes,
      mailbox: app.config.devMailbox,
      // The sign-up's order summary shows the first renewal date in this zone (R4).
      businessTimeZone: app.config.billing.timeZone,
      chat: app.config.chat,
    });

    if (webRoot) {
      await app.register(fastifyStatic, {
        root: webRoot,
        prefix: '/',
        index: false,
        wildcard: false,
        allowedPath: (pathName) => pathName !== '/index.html',
        setHeaders: (res, path) => {
          res.header(
            'cache-control',
            path.includes(`${join(webRoot, 'assets')}`)
              ? 'public, max-age=31536000, immutable'
              : 'public, max-age=3600',
          );
        },
      });
    }

    // The dated price table (R11) as a JSON data block: public pages price without a request of
    // their own. A data block is never run, so the page's CSP needs nothing for it; `<` is
    // escaped so no text in it can end the element. Rebuilt only when the table is read again.
    let pricesFor: TPriceTable | null = null;
    let pricesElement = '';
    const priceTableElement = () => {
      const table = app.prices.table();
      if (table !== pricesFor) {
        pricesFor = table;
        const json = JSON.stringify(table).replaceAll('<', '\\u003c');
        pricesElement = `<script type="application/json" id="${PRICE_TABLE_ELEMENT_ID}">${json}</script>`;
      }
      return pricesElement;
    };

    function renderPage(request: FastifyRequest, reply: FastifyReply) {
      if (dev) {
        void dev.page(request.url).then(
          (page) => sendPage(reply, page),
          (error: unknown) => reply.send(error),
        );
        return reply;
      }
      return sendPage(reply, template);
    }

    function sendPage(reply: FastifyReply, page: string) {
      const nonce = setPagePolicy(reply, app.config, { webDev: Boolean(dev) });
      const head = [
        `<meta name="csrf-token" content="${escapeAttribute(reply.csrfToken())}">`,
        `<meta name="referrer-origin" content="${escapeAttribute(new URL(app.config.publicUrl).origin)}">`,
        `<meta name="dp-config" content="${escapeAttribute(publicConfig)}">`,
        priceTableElement(),
      ].join('');
      const html = page
        .replace(HEAD_MARKER, head)
        .replaceAll('<script ', `<script nonce="${nonce}" `);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    }

    // Unknown paths (the app's pages, unknown API paths) count against the rate limit too.
    app.decorateReply('sendAppPage', function (this: FastifyReply) {
      return renderPage(this.request, this);
    });

    app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (
        path === '/api' ||
        path.startsWith('/api/') ||
        (request.method !== 'GET' && request.method !== 'HEAD')
      ) {
        return reply.status(404).send({
          statusCode: 404,
          code: ERROR_CODES.NOT_FOUND,
          message: errorMessage(ERROR_CODES.NOT_FOUND),
          errors: [],
        });
      }
      return renderPage(request, reply);
    });
  },
  { name: 'web-app', dependencies: ['csrf', 'security-headers', 'services'] },
);

declare module 'fastify' {
  interface FastifyReply {
    /** Answers with the web app's page, for server routes whose page is the single-page app. */
    sendAppPage(): FastifyReply;
  }
}

function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}
