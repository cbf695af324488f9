/** Query parameters whose values never reach a log: authorization codes, tokens, states, secrets. */
const SECRET_PARAMETER =
  /^(code|state|token|access_token|id_token|refresh_token|password|passwd|secret|session|nonce)$/i;

/** Masks credential-like query values and any user:password in a URL before it is logged. */
export function scrubUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw, 'http://relative.invalid');
  } catch {
    return raw.replace(/([?&][^=&]*(?:code|token|state|password|secret)[^=&]*=)[^&#]*/gi, '$1***');
  }
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(key)) url.searchParams.set(key, '***');
  }
  url.username = '';
  url.password = '';
  const relative = url.origin === 'http://relative.invalid';
  return relative ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}
