import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { PAGE_PRELOADS } from '../src/app/page-preloads.ts';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** What the server puts in the page for one path: its chunks and stylesheets beyond the entry's. */
export interface PagePreload {
  js: string[];
  css: string[];
}

/** Where the build writes the table the server reads (plugins/web-app.ts). */
export const PAGE_PRELOADS_FILE = '.vite/page-preloads.json';

/**
 * Writes dist/.vite/page-preloads.json: for each path of src/app/page-preloads.ts, the files of
 * its page modules and of everything they import statically, less what the entry already loads,
 * read from Vite's manifest. A module the manifest does not have fails the build (a renamed page).
 */
export function pagePreloads(): Plugin {
  let outDir = '';
  return {
    name: 'dealerpass-page-preloads',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const manifest = JSON.parse(
        readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'),
      ) as Record<string, ManifestChunk>;
      const closure = (keys: string[]) => {
        const seen = new Set<string>();
        const visit = (key: string) => {
          if (seen.has(key)) return;
          if (!manifest[key]) throw new Error(`page-preloads: the build has no module ${key}`);
          seen.add(key);
          manifest[key].imports?.forEach(visit);
        };
        keys.forEach(visit);
        return seen;
      };
      const entry = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
      const loaded = closure(entry);
      const table: Record<string, PagePreload> = {};
      for (const [path, modules] of Object.entries(PAGE_PRELOADS)) {
        const keys = [...closure(modules)].filter((key) => !loaded.has(key));
        table[path] = {
          js: keys.map((key) => `/${manifest[key]!.file}`),
          css: [...new Set(keys.flatMap((key) => manifest[key]!.css ?? []))].map((f) => `/${f}`),
        };
      }
      writeFileSync(join(outDir, PAGE_PRELOADS_FILE), JSON.stringify(table));
    },
  };
}
