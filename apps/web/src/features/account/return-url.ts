/**
 * 000 §2: "On mount, if a return URL is stored in session storage, the page navigates there and
 * clears it." Whatever leaves the account area and wants to come back (an outside sign-in such
 * as Carfax's) stores the path under this key first.
 */
export const RETURN_URL_STORAGE_KEY = 'dp.account.returnUrl';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function storeReturnUrl(url: string): void {
  try {
    storage()?.setItem(RETURN_URL_STORAGE_KEY, url);
  } catch {
    // full or disabled storage: the user simply lands on the account page
  }
}

/**
 * The stored return URL, removed from storage. Only a path of this site is returned (never
 * `//host` or `https://…`), so a planted value cannot send the user elsewhere.
 */
export function takeReturnUrl(): string | null {
  const store = storage();
  const url = store?.getItem(RETURN_URL_STORAGE_KEY) ?? null;
  if (url === null) return null;
  store?.removeItem(RETURN_URL_STORAGE_KEY);
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\') ? url : null;
}
