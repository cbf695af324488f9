/**
 * The JavaScript a first visit to /home downloads, gzipped: the entry chunk, the home page's
 * chunk and every chunk they import statically, read from Vite's build manifest.
 * Target (issue 2): ≤ 100 KB. Run after `npm run build` (npm run bench:bundle does both).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WEB_DIST, entryKey, readManifest, staticClosure } from './vite-manifest.ts';

const LIMIT_KB = 100;

export function firstLoad(routeModule: string): {
  files: { file: string; gzip: number }[];
  totalKb: number;
} {
  const manifest = readManifest();
  const keys = staticClosure(manifest, [entryKey(manifest), routeModule]);
  const files = [...keys].map((key) => {
    const file = manifest[key]!.file;
    return { file, gzip: gzipSync(readFileSync(join(WEB_DIST, file)), { level: 9 }).length };
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
