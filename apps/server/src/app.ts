import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { CustomFetch } from 'openid-client';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { deriveKeys } from './lib/keys.ts';
import { responseSerializerCompiler } from './lib/response-serializer.ts';
import { scrubRequestUrl } from './lib/scrub.ts';
import { serializeError } from './lib/serialize-error.ts';
import compression from './plugins/compression.ts';
import csrf from './plugins/csrf.ts';
import errorHandler from './plugins/error-handler.ts';
import jsonOnly from './plugins/json-only.ts';
import apiDocs from './plugins/api-docs.ts';
import metrics from './plugins/metrics.ts';
import securityHeaders from './plugins/security-headers.ts';
import textInput from './plugins/text-input.ts';
import identity from './plugins/identity.ts';
import integrations, { type IntegrationOverrides } from './plugins/integrations.ts';
import services, { type ServiceOverrides } from './plugins/services.ts';
import jobs, { type JobOptions } from './plugins/jobs.ts';
import session from './plugins/session.ts';
import staffSession from './plugins/staff-session.ts';
import sharedCounters from './plugins/shared-counters.ts';
import { rateLimitStore } from './plugins/rate-limit-store.ts';
import pathParameters, { answerRouterError, MAX_PARAM_LENGTH } from './plugins/path-parameters.ts';
import routeAccess from './plugins/route-access.ts';
import webApp from './plugins/web-app.ts';
import { createWebDev, type WebDev } from './plugins/web-dev.ts';
import adminActionRoutes from './routes/admin/account-actions.ts';
import authRoutes from './routes/auth/index.ts';
import captchaRoutes from './routes/captcha/index.ts';
import contactRoutes from './routes/contact/index.ts';
import devRoutes from './routes/dev/index.ts';
import healthRoutes from './routes/health/index.ts';
import metricsRoutes from './routes/metrics/index.ts';
import wellKnownRoutes from './routes/well-known/index.ts';
import logRoutes from './routes/log/index.ts';
import sandboxGatewayRoutes, {
  type SandboxGatewayRoutesOptions,
} from './sandboxes/payments/routes.ts';
import identityRoutes from './routes/identity/index.ts';
import oidcRoutes from './routes/oidc/index.ts';
import billingRoutes from './routes/billing/index.ts';
import paymentHistoryRoutes from './routes/payment-history/index.ts';
import signupRoutes from './routes/signup/index.ts';
import userRoutes from './routes/users/index.ts';
import carfaxRoutes from './routes/carfax/index.ts';
import carfaxSandboxRoutes from './sandboxes/carfax/routes.ts';
import configRoutes from './routes/config/index.ts';
import adminAuthRoutes from './routes/admin/staff.ts';
import adminAccountRoutes from './routes/admin/accounts.ts';
import adminBusinessRoutes from './routes/admin/index.ts';
import subscriptionRoutes from './routes/subscriptions/index.ts';
import annualBillingRoutes from './routes/annual-billing/index.ts';
import './types.ts';

export interface AppOptions extends ServiceOverrides, IntegrationOverrides {
  /** Limits of the sandbox gateway's tokenization endpoint (tests tighten or loosen them). */
  sandboxGateway?: SandboxGatewayRoutesOptions;
  /** How the relying party reaches an external provider (tests hand in a double's fetch). */
  rpFetch?: CustomFetch;
  config: Config;
  database: DatabaseHandle;
  secret: Buffer;
  /** 0: no background job runs on a timer (tests run them with `app.jobs.run`). */
  backgroundIntervalMs?: number;
  /** The built web app (apps/web/dist); null serves a placeholder page. */
  webRoot: string | null;
  /** `npm run dev`: the web app from its sources under Vite with hot reload, not from a build. */
  webDev?: boolean;
  now?: () => Date;
  /** Pino destination for the logs; tests capture them here. */
  logStream?: NodeJS.WritableStream;
  /** Human-readable logs (pino-pretty) for a person at a terminal; JSON lines otherwise. */
  prettyLogs?: boolean;
  /**
   * Sees every answer before it is sent (the tests check answers against the OpenAPI
   * description: test/sweeps/openapi-conformance.ts). Not set outside the tests.
   */
  inspectResponse?: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void;
}

/** Requests per minute per client address on routes without a stricter limit of their own. */
export const GLOBAL_RATE_LIMIT_PER_MINUTE = 600;
const STATIC_FILE = /^\/(assets\/[\w.-]+|favicon\.svg|robots\.txt)(\?|$)/;

/** Anything that could identify or authenticate someone, masked wherever it appears in a log line. */
const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.creditCardNumber',
  '*.creditCardCode',
  '*.recaptcha',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
];

/**
 * Builds the whole application as one Fastify instance (fastify/demo's layout): infrastructure
 * plugins first, then the services as decorators, then the routes by resource, then the web app.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '***' },
      // Request URLs are logged without their secrets (codes, states, tokens); a failed query's
      // message and parameters hold names and e-mails: logged without them.
      serializers: { req: serializeRequest, err: serializeError },
      ...(options.logStream ? { stream: options.logStream } : {}),
      ...(options.prettyLogs
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
            },
          }
        : {}),
    },
    genReqId: () => randomUUID(),
    // The three trace ids of the web app's HTTP client (001 §7) go on every log line of the request.
    childLoggerFactory: (logger, bindings, options, rawRequest) => {
      const headers = rawRequest.headers;
      const pageId = traceHeader(headers['x-trace-page-id']);
      const sessionId = traceHeader(headers['x-trace-session-id']);
      const userId = traceHeader(headers['x-trace-user-id']);
      const trace = pageId || sessionId || userId ? { trace: { pageId, sessionId, userId } } : {};
      return logger.child({ ...bindings, ...trace }, options);
    },
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    // A path parameter as long as its schema allows reaches the schema (docs/decisions/045).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerRouterError,
  });
  // The web app sends `content-type: application/json` on every call (001 §7), also on writes
  // that carry no body (sign-out, card removal): an empty body is no body, not malformed JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body.toString(), done);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  const inspect = options.inspectResponse;
  if (inspect) {
    app.addHook('onSend', (request, reply, payload, done) => {
      inspect(request, reply, payload);
      done(null, payload);
    });
  }

  await app.register(
    fp(
      async (instance) => {
        instance.decorate('config', config);
        instance.decorate('database', options.database);
        instance.decorate('db', options.database.db);
        instance.decorate('keys', deriveKeys(options.secret));
        instance.decorate('now', options.now ?? (() => new Date()));
        instance.decorate('messageVars', {
          company: config.company.name,
          phone: config.company.supportPhone,
        });
      },
      { name: 'config' },
    ),
  );

  // `npm run dev`: Vite answers its own paths (modules, HMR client, public files) before anything
  // else runs; every other request takes the production path.
  let webDev: WebDev | undefined;
  if (options.webDev) {
    const dev = await createWebDev(app);
    webDev = dev;
    app.addHook('onRequest', (request, reply, done) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !dev.owns(request.url))
        return done();
      reply.hijack();
      dev.vite.middlewares(request.raw, reply.raw, () => {
        reply.raw.statusCode = 404;
        reply.raw.end();
      });
    });
  }

  await app.register(errorHandler);
  // Request durations from the first hook on; the jobs (plugins/jobs.ts) report to it too.
  await app.register(metrics);
  await app.register(textInput);
  // Cookies are parsed where they are read (CSRF, sessions), not on every request.
  await app.register(cookie, { hook: false });
  await app.register(sharedCounters);
  await app.register(rateLimit, {
    global: true,
    // R13: with REDIS_URL every instance counts against the same budget. If Redis stops
    // answering, each instance counts on its own (the error logged) until it is back, rather
    // than serving requests unlimited or refusing them (docs/decisions/029).
    store: rateLimitStore({
      redis: app.redis,
      prefix: `${config.redis?.keyPrefix ?? ''}rate-limit:`,
      onRedisError: (error) =>
        app.log.error({ err: error }, 'redis: rate limit counted in this instance alone'),
    }),
    max: GLOBAL_RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request) => request.ip,
    // Static files are not a client's actions: a page load fetches a dozen, and staff of one
    // dealership often share an address. Pages and every API route stay limited.
    allowList: (request) => STATIC_FILE.test(request.url),
  });
  await app.register(securityHeaders);
  await app.register(compression);
  await app.register(csrf);
  await app.register(jsonOnly);
  await app.register(services, {
    mailTransport: options.mailTransport,
    captcha: options.captcha,
    payments: options.payments,
  } satisfies ServiceOverrides);
  await app.register(jobs, {
    scheduled: options.backgroundIntervalMs !== 0,
  } satisfies JobOptions);
  await app.register(session);
  await app.register(staffSession);
  await app.register(routeAccess);
  await app.register(pathParameters);
  // Before the routes it describes (its onRoute hook collects them); never in production.
  if (config.apiDocs) await app.register(apiDocs);
  await app.register(identity, options.rpFetch ? { rpFetch: options.rpFetch } : {});
  await app.register(integrations, {
    ...(options.carfaxFetch ? { carfaxFetch: options.carfaxFetch } : {}),
    ...(options.autoCheck ? { autoCheck: options.autoCheck } : {}),
  } satisfies IntegrationOverrides);
  // The web app first: routes below answer some paths with its page (reply.sendAppPage).
  await app.register(webApp, { webRoot: options.webRoot, webDev });

  await app.register(healthRoutes);
  if (config.metrics.enabled) await app.register(metricsRoutes);
  await app.register(wellKnownRoutes);
  await app.register(captchaRoutes);
  await app.register(contactRoutes);
  await app.register(logRoutes);
  await app.register(oidcRoutes);
  await app.register(authRoutes);
  await app.register(identityRoutes);
  await app.register(userRoutes);
  await app.register(paymentHistoryRoutes);
  await app.register(billingRoutes);
  await app.register(subscriptionRoutes);
  await app.register(annualBillingRoutes);
  await app.register(signupRoutes);
  await app.register(configRoutes);
  await app.register(carfaxRoutes);
  // The operator console (R12, docs/decisions/026): staff sessions only, a role on every route.
  await app.register(adminAuthRoutes);
  await app.register(adminAccountRoutes);
  await app.register(adminActionRoutes);
  await app.register(adminBusinessRoutes);
  if (config.carfax.kind === 'sandbox') await app.register(carfaxSandboxRoutes);
  if (config.payments.kind === 'sandbox')
    await app.register(sandboxGatewayRoutes, options.sandboxGateway ?? {});
  if (config.devMailbox) await app.register(devRoutes);

  app.addHook('onClose', async () => {
    await options.database.close();
  });
  return app;
}

/**
 * Fastify's request summary with the URL scrubbed (issue 13): one-time codes, states, tokens and
 * the Carfax callback's code in its path never reach the log.
 */
function serializeRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: scrubRequestUrl(request.url, {
      pattern: request.routeOptions?.url,
      params: request.params,
    }),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Trace ids are a short name plus a number (001 §7); anything else is dropped, not logged. */
function traceHeader(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && /^[\w.-]{1,80}$/.test(value) ? value : undefined;
}
