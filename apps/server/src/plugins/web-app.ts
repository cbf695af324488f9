import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import type { TPriceTable } from '@dealerpass/domain/prices';
import { countAsPage } from './metrics.ts';
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
 * Files go out as the build's brotli or gzip copy when the request accepts one (`Vary:
 * Accept-Encoding` either way); the page is compressed per response by plugins/compression.ts
 * (docs/decisions/020).
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
    const preloads = webRoot ? readPagePreloads(webRoot) : [];

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
        preCompressed: true,
        // The compressed copies are chosen by negotiation, never requested by their own names.
        globIgnore: ['**/*.br', '**/*.gz'],
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
      // @fastify/send names a plain .js file application/javascript, @fastify/static its compressed
      // copies text/javascript (RFC 9239): one media type whichever representation goes out.
      app.addHook('onSend', (request, reply, payload, done) => {
        if (
          'file' in request.routeOptions.config &&
          String(reply.getHeader('content-type')).startsWith('application/javascript')
        ) {
          reply.header('content-type', 'text/javascript; charset=utf-8');
        }
        done(null, payload);
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
      // The page's own chunks go last in the head, after the entry's script and stylesheet that
      // the build put there: the entry, the largest file and the one everything waits for, is
      // requested first (docs/decisions/027), and the page's stylesheets follow the entry's in the
      // cascade, as they do when a page's chunk brings them in later.
      const html = page
        .replace(HEAD_MARKER, head)
        .replace('</head>', `${pagePreloadLinks(preloads, reply.request.url)}</head>`)
        .replaceAll('<script ', `<script nonce="${nonce}" `);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    }

    // Unknown paths (the app's pages, unknown API paths) count against the rate limit too.
    app.decorateReply('sendAppPage', function (this: FastifyReply) {
      return renderPage(this.request, this);
    });

    app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (!isPagePath(path) || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply.status(404).send({
          statusCode: 404,
          code: ERROR_CODES.NOT_FOUND,
          message: errorMessage(ERROR_CODES.NOT_FOUND),
          errors: [],
        });
      }
      countAsPage(request);
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

/**
 * Whether a path no route matched may be one of the web app's pages, which the app itself sends
 * on (001 §2: any other path goes to /home). Paths that are no page answer 404 in the error
 * envelope instead of the page with 200 (issue 27, item 6): the API (`/api`), the build's
 * assets (an old chunk after a deploy is missing), `/.well-known/` (what we serve there has its
 * own route), `/metrics` (a production server without METRICS_TOKEN has none) and any path whose
 * last segment has a file extension (`/favicon.ico`, `/wp-login.php`): no page of the app has one.
 */
export function isPagePath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  const lower = decoded.toLowerCase();
  for (const prefix of ['/api', '/assets', '/.well-known', '/metrics']) {
    if (lower === prefix || lower.startsWith(`${prefix}/`)) return false;
  }
  const last = lower.replace(/\/+$/, '').split('/').pop() ?? '';
  return !/\.[a-z0-9]+$/.test(last);
}

/** The build's list of each page's chunks and stylesheets (apps/web/build/page-preloads.ts). */
const PAGE_PRELOADS_FILE = '.vite/page-preloads.json';

interface PagePreload {
  segments: string[];
  links: string;
}

function readPagePreloads(webRoot: string): PagePreload[] {
  const file = join(webRoot, PAGE_PRELOADS_FILE);
  if (!existsSync(file)) return [];
  const table = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    { js: string[]; css: string[] }
  >;
  return Object.entries(table).map(([path, { js, css }]) => ({
    segments: segmentsOf(path),
    links: [
      ...css.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`),
      ...js.map((href) => `<link rel="modulepreload" href="${escapeAttribute(href)}">`),
    ].join(''),
  }));
}

function segmentsOf(path: string): string[] {
  return path.toLowerCase().split('/').filter(Boolean);
}

/**
 * The page's own code, named in its head so the browser fetches it with the entry rather than
 * after it has run (docs/decisions/020); nothing for a path that is no page of the app.
 */
function pagePreloadLinks(preloads: PagePreload[], url: string): string {
  const path = segmentsOf(url.split('?')[0] ?? '');
  const page = preloads.find(
    ({ segments }) =>
      segments.length === path.length &&
      segments.every((segment, i) => segment.startsWith(':') || segment === path[i]),
  );
  return page?.links ?? '';
}

function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}
