import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server serves dist/ and fills index.html's <!--app-head--> marker per response (CSRF token,
// referrer origin, public configuration). For `npm run dev -w @dealerpass/web`, the API is proxied.
export default defineConfig({
  plugins: [react()],
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // The CSP forbids inline scripts, and a data: URL module preload polyfill is not needed.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
