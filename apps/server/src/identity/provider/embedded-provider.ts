import type { IncomingMessage } from 'node:http';
import { eq } from 'drizzle-orm';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { identities, staffUsers, users } from '../../db/schema.ts';
import { createAdapterFactory, type OidcStorageKeys } from './db-adapter.ts';
import { loadSigningKeys } from './signing-keys.ts';

/**
 * A client of the embedded provider: our own server, a confidential client, once for dealers and
 * once for staff (docs/decisions/026). Each signs in its own kind of account.
 */
export interface EmbeddedClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUris: string[];
}

export const EMBEDDED_MOUNT = '/oidc';
export const LEGACY_SUBJECT_PREFIX = 'legacy:';
/** Staff members' subjects (R12): `staff:<staff user id>`, never a dealer's. */
export const STAFF_SUBJECT_PREFIX = 'staff:';
export const DEALER_CLIENT_ID = 'dealerpass-web';
export const STAFF_CLIENT_ID = 'dealerpass-staff';
/** Set on the raw request by the mounting route, so provider-rendered pages can carry our CSP nonce. */
export const NONCE_PROPERTY = 'dealerpassCspNonce';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function nonceOf(ctx: KoaContextWithOIDC): string {
  return (ctx.req as IncomingMessage & { [NONCE_PROPERTY]?: string })[NONCE_PROPERTY] ?? '';
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · DealerPass</title></head><body><main>${body}</main></body></html>`;
}

/**
 * DealerPass's own OpenID Connect provider (DECISIONS R6): discovery, JWKS, authorization code
 * with PKCE S256 required, refresh tokens for offline_access, revocation and RP-initiated logout.
 * Users sign in on our pages (`/oidc/interaction/:uid`); accounts are `identities` (subject = id)
 * and, for migrated accounts, `legacy:<user id>`.
 */
export async function createEmbeddedProvider(options: {
  issuer: string;
  db: Database;
  encryptionKey: Buffer;
  /** Keys of the provider's storage: ids hashed, payloads sealed. */
  storageKeys: OidcStorageKeys;
  cookieKeys: string[];
  clients: EmbeddedClient[];
  trustProxy: boolean;
}): Promise<Provider> {
  const { db } = options;
  const configuration: Configuration = {
    adapter: createAdapterFactory(db, options.storageKeys),
    jwks: { keys: await loadSigningKeys(db, options.encryptionKey) },
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [client.redirectUri],
      post_logout_redirect_uris: client.postLogoutRedirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    })),
    pkce: { required: () => true },
    // Advertise and accept only what our two clients use (issue 27 #8, docs/decisions/038): the
    // code flow (RFC 9700 §2.1.2: no implicit, and no hybrid), a client secret in HTTP Basic.
    // Anything else is refused with RFC 6749's `unsupported_response_type`, not `invalid_request`.
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic'],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    cookies: { keys: options.cookieKeys },
    ttl: {
      AccessToken: 10 * 60,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Grant: 14 * 24 * 60 * 60,
      Session: 12 * 60 * 60,
      RefreshToken: 12 * 60 * 60,
    },
    features: {
      devInteractions: { enabled: false },
      // On by default in oidc-provider, used by no client of ours: not advertised, not accepted.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      // A client may revoke only tokens that were issued to it.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        // One step: the form posts itself (the nonce lets this one script run); a button remains for no-JS.
        async logoutSource(ctx, form) {
          const withConsent = form.replace(
            '</form>',
            '<input type="hidden" name="logout" value="yes"></form>',
          );
          ctx.body = page(
            'Signing out',
            `<h1>Signing you out…</h1>${withConsent}<button type="submit" form="op.logoutForm">Sign out</button><script nonce="${nonceOf(ctx)}">document.getElementById('op.logoutForm').submit();</script>`,
          );
        },
        async postLogoutSuccessSource(ctx) {
          ctx.body = page(
            'Signed out',
            '<h1>You have signed out.</h1><p><a href="/authlogin">Sign in again</a></p>',
          );
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${EMBEDDED_MOUNT}/interaction/${interaction.uid}`,
    },
    // Our server is the only client and first-party: consent is implied, so grant what it asked for.
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId ||
        ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (!ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope([...(ctx.oidc.requestParamScopes ?? [])].join(' '));
      await grant.save();
      return grant;
    },
    async findAccount(ctx, sub) {
      // A staff subject is an account only for the staff client, a dealer's only for the dealers'.
      const staffClient = ctx.oidc.client?.clientId === STAFF_CLIENT_ID;
      if (sub.startsWith(STAFF_SUBJECT_PREFIX) !== staffClient) return undefined;
      if (staffClient) {
        const id = sub.slice(STAFF_SUBJECT_PREFIX.length);
        if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
        const [staff] = await db
          .select({ email: staffUsers.email, name: staffUsers.name })
          .from(staffUsers)
          .where(eq(staffUsers.id, id))
          .limit(1);
        if (!staff) return undefined;
        return {
          accountId: sub,
          claims: async () => ({ sub, email: staff.email, email_verified: true, name: staff.name }),
        };
      }
      if (sub.startsWith(LEGACY_SUBJECT_PREFIX)) {
        const [user] = await db
          .select({
            id: users.id,
            email: users.email,
            firstName: users.firstName,
            lastName: users.lastName,
          })
          .from(users)
          .where(eq(users.id, sub.slice(LEGACY_SUBJECT_PREFIX.length)))
          .limit(1);
        if (!user) return undefined;
        return {
          accountId: sub,
          claims: async () => ({
            sub,
            email: user.email,
            email_verified: false,
            name: `${user.firstName} ${user.lastName}`,
            given_name: user.firstName,
            family_name: user.lastName,
          }),
        };
      }
      if (!/^[0-9a-f-]{36}$/.test(sub)) return undefined;
      const [identity] = await db.select().from(identities).where(eq(identities.id, sub)).limit(1);
      if (!identity) return undefined;
      const [user] = await db
        .select({ firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(eq(users.karId, identity.id))
        .limit(1);
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: identity.email,
          email_verified: identity.emailVerified,
          ...(user
            ? {
                name: `${user.firstName} ${user.lastName}`,
                given_name: user.firstName,
                family_name: user.lastName,
              }
            : {}),
        }),
      };
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in problem',
        `<h1>We could not complete the sign-in.</h1><p>${escapeHtml(String(out.error_description ?? out.error ?? 'Unknown error'))}</p><p><a href="/login">Start again</a></p>`,
      );
    },
  };

  const provider = new Provider(options.issuer, configuration);
  provider.proxy = options.trustProxy;
  return provider;
}
