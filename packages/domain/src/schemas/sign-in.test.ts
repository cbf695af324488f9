import { describe, expect, it } from 'vitest';
import { SIGN_IN_MESSAGES, ZSignInRequestSchema } from './sign-in.ts';

describe('ZSignInRequestSchema (DECISIONS R6)', () => {
  it.each([
    [{ method: 'email', email: ' dana@example.com ', password: 'x' }, true],
    [{ method: 'legacy', username: 'dana.legacy', password: 'x' }, true],
    [{ method: 'email', email: '', password: 'x' }, false],
    [{ method: 'legacy', username: 'u', password: '' }, false],
    [{ method: 'sso', username: 'u', password: 'x' }, false],
  ])('%j valid: %s', (input, valid) => {
    expect(ZSignInRequestSchema.safeParse(input).success).toBe(valid);
  });

  it('names the missing field', () => {
    const result = ZSignInRequestSchema.safeParse({ method: 'email', password: 'x' });
    expect(result.error?.issues[0]?.message).toBe(SIGN_IN_MESSAGES.email);
  });
});
