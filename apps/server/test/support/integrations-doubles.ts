import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the real Carfax authorization server and AutoCheck's credential check,
 * speaking the protocols the production adapters speak (docs/decisions/015): OAuth 2.0 token
 * and revocation endpoints with HTTP Basic client authentication, PKCE S256 and refresh-token
 * rotation (RFC 6749, 7636, 7009); and AutoCheck's JSON POST with an API key.
 */

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface CarfaxDouble {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Plays the user's consent at Carfax: a code for this authorization URL's challenge and redirect. */
  authorize(authorizationUrl: string): string;
  /** The next token or revoke call answers this instead. */
  failNext(status: number, body: unknown): void;
  /** The next call never answers (a timeout). */
  hangNext(): void;
  revoked: string[];
  requests: { path: string; form: Record<string, string>; authorization: string | undefined }[];
  close(): Promise<void>;
}

export async function startCarfaxDouble(): Promise<CarfaxDouble> {
  const clientId = 'dealerpass-prod';
  const clientSecret = randomBytes(16).toString('hex');
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const refreshTokens = new Set<string>();
  const revoked: string[] = [];
  const requests: CarfaxDouble['requests'] = [];
  let failure: { status: number; body: unknown } | null = null;
  let hang = false;

  const server = createServer((request, response) => {
    void (async () => {
      const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
      const path = new URL(request.url ?? '/', 'http://double').pathname;
      requests.push({ path, form, authorization: request.headers.authorization });
      if (hang) {
        hang = false;
        return; // never answers
      }
      if (failure) {
        const { status, body } = failure;
        failure = null;
        return json(response, status, body);
      }
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected)
        return json(response, 401, { error: 'invalid_client' });
      if (path === '/oauth/token') {
        const issue = () => {
          const refresh = `rt-${randomBytes(12).toString('hex')}`;
          refreshTokens.add(refresh);
          return json(response, 200, {
            access_token: `at-${randomBytes(12).toString('hex')}`,
            token_type: 'Bearer',
            expires_in: 1800,
            refresh_token: refresh,
            scope: 'offline_access',
          });
        };
        if (form.grant_type === 'authorization_code') {
          const code = codes.get(form.code ?? '');
          codes.delete(form.code ?? '');
          const challenge = createHash('sha256')
            .update(form.code_verifier ?? '')
            .digest('base64url');
          if (!code || code.redirectUri !== form.redirect_uri || code.challenge !== challenge)
            return json(response, 400, { error: 'invalid_grant' });
          return issue();
        }
        if (form.grant_type === 'refresh_token') {
          if (!refreshTokens.delete(form.refresh_token ?? ''))
            return json(response, 400, { error: 'invalid_grant' });
          return issue();
        }
        return json(response, 400, { error: 'unsupported_grant_type' });
      }
      if (path === '/oauth/revoke') {
        revoked.push(form.token ?? '');
        refreshTokens.delete(form.token ?? '');
        response.writeHead(200);
        return response.end();
      }
      json(response, 404, { error: 'not_found' });
    })();
  });
  const url = await listen(server);
  return {
    url,
    clientId,
    clientSecret,
    authorize(authorizationUrl) {
      const params = new URL(authorizationUrl).searchParams;
      if (params.get('client_id') !== clientId || params.get('code_challenge_method') !== 'S256')
        throw new Error('not an authorization request for this client');
      const code = `code-${randomBytes(12).toString('hex')}`;
      codes.set(code, {
        challenge: params.get('code_challenge') ?? '',
        redirectUri: params.get('redirect_uri') ?? '',
      });
      return code;
    },
    failNext(status, body) {
      failure = { status, body };
    },
    hangNext() {
      hang = true;
    },
    revoked,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export interface AutoCheckDouble {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Valid: `AC-REAL-1` / `Real!Pass1`; `AC-DOWN` answers 500; anything else 401. */
export async function startAutoCheckDouble(): Promise<AutoCheckDouble> {
  const apiKey = randomBytes(8).toString('hex');
  const server = createServer((request, response) => {
    void (async () => {
      const body = JSON.parse(await readBody(request)) as { userId?: string; password?: string };
      if (request.headers['x-api-key'] !== apiKey) return json(response, 403, { error: 'key' });
      if (body.userId === 'AC-DOWN') return json(response, 500, { error: 'down' });
      if (body.userId === 'AC-REAL-1' && body.password === 'Real!Pass1')
        return json(response, 200, { valid: true });
      return json(response, 401, { valid: false });
    })();
  });
  const url = await listen(server);
  return {
    url: `${url}/v1/credentials/verify`,
    apiKey,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
