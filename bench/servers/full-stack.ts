import { randomBytes } from 'node:crypto';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';

// DealerPass as it runs in production: every plugin, hook and header, with logging at the level
// a production server uses. The route itself does nothing, so the measurement is the stack.
const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'warn' });
const app = await buildApp({
  config,
  database: await openDatabase({ dataDir: null }),
  secret: randomBytes(32),
  webRoot: null,
  backgroundIntervalMs: 0,
});
app.get('/api/bench/ping', { config: { access: 'public', rateLimit: false } }, async () => ({
  hello: 'world',
}));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
