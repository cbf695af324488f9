import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { solveChallenge } from 'altcha-lib/v1';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { CSRF_COOKIE } from '../../src/plugins/csrf.ts';
import { createConformanceCheck } from '../sweeps/openapi-conformance.ts';

export interface TestApp {
  app: FastifyInstance;
  /** The PostgreSQL database of this test file (TEST_DATABASE_URL runs), for a second connection. */
  databaseUrl?: string | undefined;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  /**
   * Answers that did not match the OpenAPI description (status or body); `close()` fails when
   * any are left. A test that provokes one on purpose empties it.
   */
  conformanceFailures: string[];
  /** A browser's first visit: its CSRF cookie and the token from the page. */
  browser(): Promise<TestBrowser>;
  /** Fetches a challenge from the app and solves it, as the web app's captcha widget does. */
  solveCaptcha(): Promise<string>;
  close(): Promise<void>;
}

export interface TestBrowser {
  cookie: string;
  token: string;
  /** Injects with this browser's cookie, CSRF token and JSON content type. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/**
 * Builds the real app against a database of its own: in-memory PGlite by default, or a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set (dropped again by close()).
 */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    now?: () => Date;
    /** A built web app to serve (a temporary folder in tests); none by default. */
    webRoot?: string;
    /** Extra routes a test needs, registered before the app is ready. */
    routes?: (app: FastifyInstance) => void;
    /**
     * Whether the answers of those extra routes are checked against the OpenAPI description
     * too (they are test scaffolding, described by nothing, unless a test says so).
     */
    checkTestRoutes?: boolean;
  } & Partial<
    Pick<
      AppOptions,
      'mailTransport' | 'captcha' | 'rpFetch' | 'sandboxGateway' | 'carfaxFetch' | 'autoCheck'
    >
  > = {},
): Promise<TestApp> {
  const config = loadConfig({
    APP_ENV: 'test',
    LOG_LEVEL: 'info',
    CAPTCHA_DIFFICULTY: '2000',
    ...options.env,
  });
  const { database, dropDatabase, databaseUrl } = await openTestDatabase();
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const conformance = createConformanceCheck();
  const app = await buildApp({
    config,
    inspectResponse: conformance.check,
    database,
    secret: randomBytes(32),
    webRoot: options.webRoot ?? null,
    backgroundIntervalMs: 0,
    logStream,
    ...(options.now ? { now: options.now } : {}),
    ...(options.mailTransport ? { mailTransport: options.mailTransport } : {}),
    ...(options.captcha ? { captcha: options.captcha } : {}),
    ...(options.rpFetch ? { rpFetch: options.rpFetch } : {}),
    ...(options.sandboxGateway ? { sandboxGateway: options.sandboxGateway } : {}),
    ...(options.carfaxFetch ? { carfaxFetch: options.carfaxFetch } : {}),
    ...(options.autoCheck ? { autoCheck: options.autoCheck } : {}),
  });
  const before = app.routeTable.length;
  options.routes?.(app);
  await app.ready();
  const testRoutes = options.checkTestRoutes
    ? []
    : app.routeTable.slice(before).map((route) => route.url);
  conformance.attach(app, new Set(testRoutes));

  return {
    app,
    databaseUrl,
    logs,
    conformanceFailures: conformance.failures,
    async browser() {
      const page = await app.inject({ method: 'GET', url: '/home' });
      const cookie = page.cookies.find((c) => c.name === CSRF_COOKIE);
      const token = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)?.[1];
      if (!cookie || !token) throw new Error('the page did not carry a CSRF cookie and token');
      const cookieHeader = `${CSRF_COOKIE}=${cookie.value}`;
      return {
        cookie: cookieHeader,
        token,
        request: (requestOptions) =>
          app.inject({
            ...requestOptions,
            headers: {
              cookie: cookieHeader,
              'x-csrf-token': token,
              ...(requestOptions.payload !== undefined
                ? { 'content-type': 'application/json' }
                : {}),
              ...requestOptions.headers,
            },
          }),
      };
    },
    async solveCaptcha() {
      const response = await app.inject({ method: 'GET', url: '/api/captcha/challenge' });
      const challenge = response.json<{
        algorithm: string;
        challenge: string;
        salt: string;
        signature: string;
        maxnumber: number;
      }>();
      const solution = await solveChallenge(
        challenge.challenge,
        challenge.salt,
        challenge.algorithm,
        challenge.maxnumber,
      ).promise;
      if (!solution) throw new Error('captcha challenge could not be solved');
      const payload = {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        number: solution.number,
        salt: challenge.salt,
        signature: challenge.signature,
      };
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    },
    async close() {
      await app.close();
      await dropDatabase();
      if (conformance.failures.length > 0) {
        throw new Error(
          `answers that do not match the OpenAPI description (docs/decisions/023):\n${[
            ...new Set(conformance.failures),
          ].join('\n')}`,
        );
      }
    },
  };
}

let pgliteDump: Promise<Blob> | undefined;

/**
 * A copy of the database the run migrated once (test/support/global-setup.ts, docs/decisions/033): on
 * PostgreSQL a database created from the run's template, on PGlite one loaded from its dump.
 */
async function openTestDatabase(): Promise<{
  database: DatabaseHandle;
  dropDatabase: () => Promise<void>;
  databaseUrl?: string;
}> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dumpFile = inject('pgliteDumpFile');
    pgliteDump ??= dumpFile
      ? readFile(dumpFile).then((bytes) => new Blob([bytes]))
      : Promise.resolve(new Blob([]));
    const dump = await pgliteDump;
    return {
      database: await openDatabase({ dataDir: null, ...(dump.size ? { pgliteDump: dump } : {}) }),
      dropDatabase: async () => {},
    };
  }
  const name = `dp_test_${randomBytes(6).toString('hex')}`;
  const template = inject('templateDatabase');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    // Dropping the database at the end terminates whatever connection is still closing.
    database: await openDatabase({ databaseUrl: url.toString(), onConnectionError: () => {} }),
    async dropDatabase() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
