import { hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Provider from 'oidc-provider';
import type { CustomFetch } from 'openid-client';
import {
  createEmbeddedProvider,
  DEALER_CLIENT_ID,
  EMBEDDED_MOUNT,
  STAFF_CLIENT_ID,
  type EmbeddedClient,
} from '../identity/provider/embedded-provider.ts';
import { createRelyingParty, type RelyingParty } from '../identity/relying-party.ts';
import { deriveSubkey } from '../lib/keys.ts';
import type { ServiceDeps } from './services.ts';

export const LOGIN_CALLBACK_PATH = '/web/oauth/callback/karid/login';
/** 001 §2: one logout callback per context. */
export const LOGOUT_CALLBACK_PATHS = {
  web: '/web/oauth/callback/karid/logout',
  app: '/app/oauth/callback/karid/logout',
  af: '/af/oauth/callback/karid/logout',
  ext: '/ext/oauth/callback/karid/logout',
} as const;

/** The operator console's sign-in callback and where its sign-out returns (docs/decisions/026). */
export const STAFF_LOGIN_CALLBACK_PATH = '/admin/oauth/callback';
export const STAFF_LOGOUT_CALLBACK_PATH = '/admin/signed-out';

/** Marks the relying party's in-process calls to the embedded provider (not rate-limited). */
export const INTERNAL_HEADER = 'x-dealerpass-internal';

function derive(secretKey: Buffer, purpose: string): string {
  return Buffer.from(
    hkdfSync('sha256', secretKey, Buffer.alloc(0), `dealerpass:${purpose}`, 32),
  ).toString('base64url');
}

/**
 * Identity (docs/decisions/009): the embedded provider unless an external one is configured, and
 * the relying party that talks to whichever it is.
 */
export default fp(
  async (app, options: { rpFetch?: CustomFetch }) => {
    const { config } = app;
    const internalToken = randomBytes(24).toString('base64url');
    const embeddedIssuer = `${config.publicUrl}${EMBEDDED_MOUNT}`;
    const embeddedFetch = options.rpFetch ?? inProcessFetch(app, internalToken);
    const clients: EmbeddedClient[] = [];

    // The dealers' relying party: an external provider's client, or the embedded provider's.
    let rp: RelyingParty;
    if (config.identity.kind === 'external') {
      rp = createRelyingParty({
        issuer: config.identity.issuer,
        clientId: config.identity.clientId,
        clientSecret: config.identity.clientSecret,
        redirectUri: `${config.publicUrl}${LOGIN_CALLBACK_PATH}`,
        ...(options.rpFetch ? { fetch: options.rpFetch } : {}),
      });
    } else {
      const clientSecret = derive(app.keys.encryption, 'oidc-client-secret');
      clients.push({
        clientId: DEALER_CLIENT_ID,
        clientSecret,
        redirectUri: `${config.publicUrl}${LOGIN_CALLBACK_PATH}`,
        postLogoutRedirectUris: Object.values(LOGOUT_CALLBACK_PATHS).map(
          (path) => `${config.publicUrl}${path}`,
        ),
      });
      rp = createRelyingParty({
        issuer: embeddedIssuer,
        clientId: DEALER_CLIENT_ID,
        clientSecret,
        redirectUri: `${config.publicUrl}${LOGIN_CALLBACK_PATH}`,
        fetch: embeddedFetch,
      });
    }

    // The operator console's (R12): its own client, of its own provider when one is configured.
    let staffRp: RelyingParty;
    if (config.staffIdentity.kind === 'external') {
      staffRp = createRelyingParty({
        issuer: config.staffIdentity.issuer,
        clientId: config.staffIdentity.clientId,
        clientSecret: config.staffIdentity.clientSecret,
        redirectUri: `${config.publicUrl}${STAFF_LOGIN_CALLBACK_PATH}`,
        ...(options.rpFetch ? { fetch: options.rpFetch } : {}),
      });
    } else {
      const clientSecret = derive(app.keys.encryption, 'oidc-staff-client-secret');
      clients.push({
        clientId: STAFF_CLIENT_ID,
        clientSecret,
        redirectUri: `${config.publicUrl}${STAFF_LOGIN_CALLBACK_PATH}`,
        postLogoutRedirectUris: [`${config.publicUrl}${STAFF_LOGOUT_CALLBACK_PATH}`],
      });
      staffRp = createRelyingParty({
        issuer: embeddedIssuer,
        clientId: STAFF_CLIENT_ID,
        clientSecret,
        redirectUri: `${config.publicUrl}${STAFF_LOGIN_CALLBACK_PATH}`,
        fetch: embeddedFetch,
      });
    }

    // The embedded provider runs when either side signs in through it.
    const provider: Provider | null =
      clients.length === 0
        ? null
        : await createEmbeddedProvider({
            issuer: embeddedIssuer,
            db: app.db,
            encryptionKey: app.keys.encryption,
            storageKeys: {
              lookup: deriveSubkey(app.keys.lookup, 'oidc-storage'),
              encryption: deriveSubkey(app.keys.encryption, 'oidc-storage'),
            },
            cookieKeys: [derive(app.keys.encryption, 'oidc-cookies')],
            clients,
            trustProxy: true, // forwarded headers are ours only: see the mount route
          });
    // The sign-in callbacks' dependencies (plugins/services.ts, ServiceDeps), built once.
    Object.assign(app.deps, {
      signIn: { db: app.db, rp, now: app.now, encryptionKey: app.keys.encryption },
      staffSignIn: {
        db: app.db,
        rp: staffRp,
        now: app.now,
        encryptionKey: app.keys.encryption,
        external: config.staffIdentity.kind === 'external',
      },
    } satisfies Pick<ServiceDeps, 'signIn' | 'staffSignIn'>);
    app.decorate('identity', {
      provider,
      rp,
      staffRp,
      dealersEmbedded: config.identity.kind === 'embedded',
      internalToken,
    });
  },
  { name: 'identity', dependencies: ['config', 'services'] },
);

/**
 * The relying party reaches the embedded provider through `app.inject`: the same HTTP requests
 * and responses, without a network hop or a dependency on PUBLIC_URL resolving from inside.
 */
export function inProcessFetch(app: FastifyInstance, internalToken: string): CustomFetch {
  const publicUrl = new URL(app.config.publicUrl);
  return async (url, options) => {
    const target = new URL(url);
    const body = options.body;
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: {
        ...options.headers,
        host: publicUrl.host,
        'x-forwarded-proto': publicUrl.protocol.replace(':', ''),
        [INTERNAL_HEADER]: internalToken,
      },
      ...(body === undefined || body === null
        ? {}
        : { payload: typeof body === 'string' ? body : body.toString() }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
    }
    return new Response(response.statusCode === 204 ? null : response.rawPayload, {
      status: response.statusCode,
      headers,
    });
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: {
      provider: Provider | null;
      /** The dealers' relying party. */
      rp: RelyingParty;
      /** The operator console's relying party (docs/decisions/026). */
      staffRp: RelyingParty;
      /** Whether dealers sign in at the embedded provider (its dealer client exists). */
      dealersEmbedded: boolean;
      internalToken: string;
    };
  }
}
