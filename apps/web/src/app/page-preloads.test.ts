import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGE_PRELOADS } from './page-preloads.ts';

// Vitest runs from the repository root.
const ROUTER_SOURCE = readFileSync('apps/web/src/app/router.tsx', 'utf8');
/** Every module router.tsx loads on demand, relative to apps/web as the build manifest names it. */
const LAZY_MODULES = [...ROUTER_SOURCE.matchAll(/import\('(\.{1,2}\/[^']+)'\)/g)].map(([, path]) =>
  new URL(path!, 'file:///apps/web/src/app/').pathname.replace('/apps/web/', ''),
);

describe('the page preload table', () => {
  it('lists every page router.tsx loads on demand, and only those', () => {
    expect(LAZY_MODULES.length).toBeGreaterThan(20);
    const listed = new Set(Object.values(PAGE_PRELOADS).flat());
    expect([...listed].sort()).toEqual([...new Set(LAZY_MODULES)].sort());
  });

  it('lists only paths the router has a page for', async () => {
    const { matchRoutes, routesFromChildren } = await import('../lib/router/match-routes.ts');
    const { APP_ROUTES } = await import('./router.tsx');
    for (const path of Object.keys(PAGE_PRELOADS)) {
      const concrete = path.replace(/:\w+/g, 'x1y2z3');
      const chain = matchRoutes(routesFromChildren(APP_ROUTES), concrete);
      const leaf = chain?.at(-1)?.route;
      // Not the catch-all redirect: a route of its own.
      expect(leaf?.path, path).not.toBe('*');
      expect(leaf?.path, path).toBeDefined();
    }
  });
});
