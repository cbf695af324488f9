/**
 * Vite's build manifest (apps/web/dist/.vite/manifest.json) and the chunks a page loads with it:
 * shared by bench/bundle-size.ts and the browser test that keeps account code out of public
 * pages' first load. Run after `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** The web app's build output folder. */
export const WEB_DIST = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));

export function readManifest(): Manifest {
  return JSON.parse(readFileSync(`${WEB_DIST}.vite/manifest.json`, 'utf8')) as Manifest;
}

/** The manifest keys loaded with these, following static imports only. */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
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

/** The build's entry chunk. */
export function entryKey(manifest: Manifest): string {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('manifest has no entry chunk');
  return entry;
}
