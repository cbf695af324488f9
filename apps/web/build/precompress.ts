import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text formats worth compressing; images, fonts (woff2 is compressed already) and archives are not. */
const TEXT_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.html',
  '.json',
  '.txt',
  '.xml',
  '.webmanifest',
  '.map',
]);

/**
 * Writes `file.br` and `file.gz` beside every text file of the build (docs/decisions/020), at the
 * highest settings since this runs once per build: the server picks one by the request's
 * Accept-Encoding (@fastify/static `preCompressed`). index.html is left alone: the server fills it
 * per response and compresses that answer itself. A compressed copy that is not smaller is not
 * written (the server then falls back to the next encoding, finally the file itself).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'dealerpass-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // closeBundle: after Vite has copied public/ into the output too.
    closeBundle() {
      for (const file of listFiles(outDir)) {
        const name = relative(outDir, file);
        if (name === 'index.html' || name.startsWith('.vite')) continue;
        if (!TEXT_EXTENSIONS.has(extname(file))) continue;
        const source = readFileSync(file);
        const brotli = brotliCompressSync(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        const gzip = gzipSync(source, { level: constants.Z_BEST_COMPRESSION });
        if (brotli.length < source.length) writeFileSync(`${file}.br`, brotli);
        if (gzip.length < source.length) writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
