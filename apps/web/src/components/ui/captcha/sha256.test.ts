import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Words } from './sha256.ts';

const hexOf = (words: Int32Array) =>
  Array.from(words, (word) => (word >>> 0).toString(16).padStart(8, '0')).join('');

function digest(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const out = new Int32Array(8);
  sha256Words(bytes, bytes.length, out);
  return hexOf(out);
}

describe('sha256Words', () => {
  it('gives FIPS 180-4’s example digests (one block, empty, two blocks)', () => {
    expect(digest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digest('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(digest('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with Node’s SHA-256 on every length around the block edges', () => {
    for (let length = 0; length <= 200; length++) {
      const text = 'x7?'.repeat(70).slice(0, length);
      expect(digest(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });

  it('reads only the given length of a longer buffer', () => {
    const bytes = new TextEncoder().encode('abcdef');
    const out = new Int32Array(8);
    sha256Words(bytes, 3, out);
    expect(hexOf(out)).toBe(digest('abc'));
  });
});
