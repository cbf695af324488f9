import { describe, expect, it } from 'vitest';
import { ZClientLogRequestSchema } from './client-log.ts';

describe('ZClientLogRequestSchema (001 §7)', () => {
  it.each([
    [{ err: 'invalidToken', message: '403', url: '/account' }],
    [{ message: 'AutoCheck auto-purchase enabled', url: '/account/autoCheckIntegrations' }],
    [{ event: 'profile mounted', description: 'd', url: '/a', userId: 'x', n: 1, ok: true }],
  ])('accepts %j', (body) => {
    expect(ZClientLogRequestSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    ['no url', { message: 'x' }],
    ['neither message nor event', { url: '/a' }],
    ['long url', { message: 'x', url: 'u'.repeat(2049) }],
    ['long message', { message: 'x'.repeat(2001), url: '/a' }],
    ['long event', { event: 'x'.repeat(201), url: '/a' }],
    ['object option', { event: 'e', url: '/a', nested: { a: 1 } }],
    ['long option name', { event: 'e', url: '/a', ['k'.repeat(101)]: 1 }],
    [
      'too many options',
      {
        event: 'e',
        url: '/a',
        ...Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`o${i}`, i])),
      },
    ],
  ])('refuses %s', (_name, body) => {
    expect(ZClientLogRequestSchema.safeParse(body).success).toBe(false);
  });

  it('allows exactly 20 options', () => {
    const options = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`o${i}`, i]));
    expect(ZClientLogRequestSchema.safeParse({ event: 'e', url: '/a', ...options }).success).toBe(
      true,
    );
  });
});
