import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Fewer, larger shared chunks for the pages whose first paint is measured (docs/decisions/027).
 * Left to itself the bundler splits shared code by the exact set of pages using it: the sign-up
 * page's first load was 24 files, the billing page's 22. Lighthouse models HTTP/1.1 as six
 * connections per origin with a round trip per file, so every six files cost a round trip of a
 * slow phone connection, more than their bytes did. Three groups collect that code instead:
 *
 * - `home`: what the home page imports (the catalogue, prices, the quote table), in one file; the
 *   sign-up and account pages use it too.
 * - `account`: the account feature's modules, the session handling and the query library that
 *   the account area's layout and route guard import; only account pages load it.
 * - `forms`: the form library and the form components; pages with a form load it.
 * - `shared`: the rest of the app's and the domain's shared code (not the domain's staff rules,
 *   which only the operator console's chunks use).
 *
 * A module stays where the bundler puts it when it is the target of a dynamic import (a page, the
 * billing form, a schema imported at first use), when it reaches zod through its static imports
 * (zod loads at a form's first use, never with a group), or when the entry loads it statically (the
 * entry takes in no group's chunk). /home loads the entry, its page and `home` only (its first
 * load has a budget, decision 006). Groups do not take in their modules' dependencies: each
 * module is in the one chunk its own group names.
 */
const ACCOUNT_SHELL = [
  'src/app/layouts/account-layout.tsx',
  'src/features/account/components/account-route-guard.tsx',
];
const ACCOUNT =
  /apps\/web\/src\/features\/(account|auth)\/|node_modules\/@tanstack\/|apps\/web\/src\/lib\/(react-query|chat-widget)\.ts$/;
const FORMS =
  /node_modules\/(react-hook-form|@hookform)\/|apps\/web\/src\/lib\/(use-validated-form|error-text)\.ts$|apps\/web\/src\/components\/ui\/(error-summary|checkbox-field|choice-group|captcha\/)/;
// The domain's staff rules serve the operator console only (decision 026): they stay with it, and
// so does QueryState (components/ui), which only the console's views use so far.
const SHARED =
  /apps\/web\/src\/(lib\/|components\/(?!ui\/query-state))|packages\/domain\/src\/(?!staff\/)/;
const ZOD = /node_modules\/zod\//;

export function chunkGroups(root: string, homePage: string) {
  const lazy = new Set<string>();
  const kept = new Set<string>();
  const home = new Set<string>();
  const reachesZod = new Set<string>();
  const accountShell = new Set<string>();
  const plugin: Plugin = {
    name: 'dealerpass-chunk-groups',
    apply: 'build',
    moduleParsed(info) {
      for (const id of info.dynamicallyImportedIds) lazy.add(id);
    },
    buildEnd() {
      const importsOf = (id: string) => this.getModuleInfo(id)?.importedIds ?? [];
      const closure = (from: string[], into: Set<string>) => {
        const visit = (id: string) => {
          if (into.has(id)) return;
          into.add(id);
          importsOf(id).forEach(visit);
        };
        from.forEach(visit);
      };
      // What the entry loads statically stays in it.
      closure(
        [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry),
        kept,
      );
      closure([resolve(root, homePage)], home);
      closure(
        ACCOUNT_SHELL.map((path) => resolve(root, path)),
        accountShell,
      );
      // Every module from which zod is reachable through static imports.
      const ids = [...this.getModuleIds()];
      const memo = new Map<string, boolean>();
      const reaches = (id: string, path: Set<string>): boolean => {
        const known = memo.get(id);
        if (known !== undefined) return known;
        if (ZOD.test(id.replaceAll('\\', '/'))) return true;
        if (path.has(id)) return false; // a cycle: decided where it started
        path.add(id);
        const result = importsOf(id).some((next) => reaches(next, path));
        path.delete(id);
        memo.set(id, result);
        return result;
      };
      for (const id of ids) if (reaches(id, new Set())) reachesZod.add(id);
    },
  };
  const groupable = (id: string) => !lazy.has(id) && !kept.has(id) && !reachesZod.has(id);
  const path = (id: string) => id.replaceAll('\\', '/');
  const codeSplitting = {
    includeDependenciesRecursively: false,
    groups: [
      { name: 'home', priority: 40, test: (id: string) => groupable(id) && home.has(id) },
      {
        name: 'account',
        priority: 30,
        test: (id: string) => groupable(id) && accountShell.has(id) && ACCOUNT.test(path(id)),
      },
      { name: 'forms', priority: 20, test: (id: string) => groupable(id) && FORMS.test(path(id)) },
      {
        name: 'shared',
        priority: 10,
        test: (id: string) => groupable(id) && SHARED.test(path(id)),
      },
    ],
  };
  return { plugin, codeSplitting };
}
