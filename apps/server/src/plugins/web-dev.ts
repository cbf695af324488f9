import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ViteDevServer } from 'vite';

/** The web app's sources: index.html, src/, public/ and its vite.config.ts. */
export const WEB_APP_ROOT = fileURLToPath(new URL('../../../web', import.meta.url));

/**
 * The web app under Vite for `npm run dev` (docs/decisions/022): the Fastify server stays the one
 * origin, so `/api`, `/login`, `/oidc`, `/logout`, the sandboxes and the pages the server answers
 * itself work as in production, and Vite runs inside it in middleware mode: it answers its own
 * paths (modules, the HMR client, public files) and transforms index.html, into which the server
 * still writes the CSRF token and the other meta tags per response. The HMR socket shares the
 * server's port. Vite is a development dependency: imported only here, only in this mode.
 */
export interface WebDev {
  vite: ViteDevServer;
  /** Whether Vite answers this path (its modules and client, the web app's public files). */
  owns(url: string): boolean;
  /** index.html as Vite serves it now (with its HMR client and React's refresh preamble). */
  page(url: string): Promise<string>;
}

const VITE_PATH = /^\/(@|src\/|node_modules\/|__vite)/;

export async function createWebDev(app: FastifyInstance): Promise<WebDev> {
  // A development dependency: a production install (npm ci --omit=dev) never reaches this import.
  const { createServer } = await import('vite');
  const vite = await createServer({
    root: WEB_APP_ROOT,
    configFile: `${WEB_APP_ROOT}/vite.config.ts`,
    appType: 'custom',
    server: { middlewareMode: true, ws: { server: app.server } },
    logLevel: 'warn',
  });
  app.addHook('onClose', async () => {
    await vite.close();
  });
  const publicFiles = new Set(readdirSync(`${WEB_APP_ROOT}/public`).map((name) => `/${name}`));
  return {
    vite,
    owns: (url) => {
      const path = url.split('?')[0] ?? '';
      return VITE_PATH.test(path) || publicFiles.has(path);
    },
    page: async (url) =>
      vite.transformIndexHtml(url, await readFile(`${WEB_APP_ROOT}/index.html`, 'utf8')),
  };
}
