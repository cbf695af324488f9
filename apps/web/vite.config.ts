import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { chunkGroups } from './build/chunk-groups.ts';
import { pagePreloads } from './build/page-preloads.ts';
import { precompress } from './build/precompress.ts';

// The server serves dist/ and fills index.html's <!--app-head--> marker per response (CSRF token,
// referrer origin, public configuration). Every other text file is written beside its brotli
// and gzip copies (build/precompress.ts); each page's chunks are listed for the server to preload
// (build/page-preloads.ts). For `npm run dev -w @dealerpass/web`, the API is proxied.
const groups = chunkGroups(import.meta.dirname, 'src/features/marketing/routes/home-page.tsx');

export default defineConfig({
  plugins: [react(), groups.plugin, pagePreloads(), precompress()],
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // The CSP forbids inline scripts, and a data: URL module preload polyfill is not needed.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // One stylesheet for every page (about 6 KB compressed): a page's own stylesheets were up to
    // four more render-blocking requests before its first paint (docs/decisions/027).
    cssCodeSplit: false,
    // Fewer, larger shared chunks for the pages whose first paint counts (build/chunk-groups.ts).
    rolldownOptions: { output: { codeSplitting: groups.codeSplitting } },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
