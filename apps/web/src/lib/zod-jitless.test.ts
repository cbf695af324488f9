// vitest-isolate: proves what importing zod-jitless.ts does to zod, so it needs zod fresh
// (vitest.config.ts).
import { describe, expect, it, vi } from 'vitest';

describe('zod without eval', () => {
  it('parses objects without constructing a Function (the CSP forbids eval)', async () => {
    await import('./zod-jitless.ts');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    const construct = vi.spyOn(globalThis, 'Function');
    const schema = z.object({ name: z.string(), count: z.number() });
    expect(schema.parse({ name: 'a', count: 1 })).toEqual({ name: 'a', count: 1 });
    expect(construct).not.toHaveBeenCalled();
    construct.mockRestore();
  });
});
