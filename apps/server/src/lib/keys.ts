import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Purpose-bound keys derived from the one server secret, so no two features share key material. */
export interface Keys {
  csrf: Buffer;
  captcha: Buffer;
  encryption: Buffer;
  /** Keyed hashes of stored values that are looked up but must not be kept as they are. */
  lookup: Buffer;
}

export function deriveKeys(secret: Buffer): Keys {
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `dealerpass:${purpose}`, 32));
  return {
    csrf: derive('csrf'),
    captcha: derive('captcha'),
    encryption: derive('encryption'),
    lookup: derive('lookup'),
  };
}

/**
 * The server secret: SECRET_KEY when configured; otherwise (embedded default, DECISIONS R7) a key
 * created in the data folder on first start and read back on every later start.
 */
export async function resolveSecret(
  secretKey: string | undefined,
  dataDir: string,
): Promise<Buffer> {
  if (secretKey) return Buffer.from(secretKey, 'base64');
  const path = join(dataDir, 'secret.key');
  try {
    return Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32);
  await writeFile(path, `${secret.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(path, 0o600);
  return secret;
}

export function hmac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A key for one purpose derived from a feature key, so features can split theirs further. */
export function deriveSubkey(key: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `dealerpass:${purpose}`, 32));
}
