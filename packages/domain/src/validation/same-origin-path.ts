/**
 * The WHATWG URL parser, a global in every runtime the domain runs in (browsers, Node). The
 * domain compiles without platform types, so the part used here is declared here.
 */
declare const URL: new (
  url: string,
  base?: string,
) => { origin: string; pathname: string; search: string; hash: string };

/** Stands for our own origin when the caller has none to give: never a real host. */
const PLACEHOLDER_ORIGIN = 'https://same-origin.invalid';

/**
 * A return target or forward address reduced to a path of our own origin, or null when it is
 * anything else (docs/decisions/016). Browsers drop TAB, CR and LF inside a URL and read `\` as
 * `/`, so `/\t/evil.example` or `/\evil.example` would leave the site: only printable ASCII is
 * accepted, the value is parsed as a browser would, and the result is checked once more, since a
 * path such as `/.//evil.example` normalizes to `//evil.example`.
 */
export function sameOriginPath(value: string, ownOrigin?: string): string | null {
  if (!/^[\x21-\x7e]+$/.test(value)) return null;
  if (!ownOrigin && !value.startsWith('/')) return null;
  const base = ownOrigin ?? PLACEHOLDER_ORIGIN;
  let url: InstanceType<typeof URL>;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== new URL(base).origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  return path;
}
