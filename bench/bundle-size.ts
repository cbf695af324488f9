/**
 * The JavaScript a first visit to /home downloads, gzipped: the entry chunk, the home page's
 * chunk and every chunk they import statically, read from Vite's build manifest.
 * Target (issue 2): ≤ 100 KB. Run after `npm run build` (npm run bench:bundle does both).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const DIST = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const LIMIT_KB = 100;
const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/** Chunks loaded for these manifest keys, following static imports only. */
function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return seen;
}

export function firstLoad(routeModule: string): {
  files: { file: string; gzip: number }[];
  totalKb: number;
} {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  const keys = closure([entry, routeModule]);
  const files = [...keys].map((key) => {
    const file = manifest[key]!.file;
    return { file, gzip: gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length };
  });
  return { files, totalKb: files.reduce((sum, f) => sum + f.gzip, 0) / 1024 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, totalKb } = firstLoad('src/features/marketing/routes/home-page.tsx');
  for (const { file, gzip } of files.sort((a, b) => b.gzip - a.gzip)) {
    console.log(`${(gzip / 1024).toFixed(1).padStart(7)} KB  ${file}`);
  }
  console.log(
    `first load of /home: ${totalKb.toFixed(1)} KB of gzipped JavaScript (limit ${LIMIT_KB} KB) ${totalKb <= LIMIT_KB ? 'PASS' : 'FAIL'}`,
  );
  process.exitCode = totalKb <= LIMIT_KB ? 0 : 1;
}
