/**
 * Parameters whose values never reach a log: authorization codes, tokens, states, secrets, and
 * the ID token a logout hands back as `id_token_hint`.
 */
const SECRET_PARAMETER =
  /^(code|state|token|access_token|id_token|id_token_hint|refresh_token|code_verifier|client_secret|password|passwd|secret|session|nonce)$/i;

const MASK = '***';

/** Masks credential-like query values and any user:password in a URL before it is logged. */
export function scrubUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw, 'http://relative.invalid');
  } catch {
    return raw.replace(/([?&][^=&]*(?:code|token|state|password|secret)[^=&]*=)[^&#]*/gi, '$1***');
  }
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(key)) url.searchParams.set(key, MASK);
  }
  url.username = '';
  url.password = '';
  const relative = url.origin === 'http://relative.invalid';
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}

/** Fastify route parameters in a route's path: `:name`, optionally with a regular expression. */
const ROUTE_PARAMETER = /:(\w+)(\([^)]*\))?/g;

/**
 * A request's URL as it may be logged: secret query values masked, and, when the route that
 * matched takes a secret in its path (the Carfax callback's `/:code/`), the path rebuilt from the
 * route's own pattern with that parameter masked. Deciding on the matched route, not on the raw
 * URL, also catches a percent-encoded or otherwise disguised path.
 */
export function scrubRequestUrl(
  url: string,
  route: { pattern?: string | undefined; params?: unknown } = {},
): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : scrubUrl(`/${url.slice(queryAt)}`).slice(1);
  const { pattern } = route;
  const params = (route.params ?? {}) as Record<string, unknown>;
  if (!pattern || ![...pattern.matchAll(ROUTE_PARAMETER)].some(([, name]) => isSecret(name))) {
    return `${path}${query}`;
  }
  const rebuilt = pattern.replace(ROUTE_PARAMETER, (_whole, name: string) =>
    isSecret(name) ? MASK : encodeURIComponent(String(params[name] ?? '')),
  );
  return `${rebuilt}${query}`;
}

const isSecret = (name: string | undefined) => name !== undefined && SECRET_PARAMETER.test(name);
