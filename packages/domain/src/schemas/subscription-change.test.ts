import { describe, expect, it } from 'vitest';
import {
  ZSubscriptionChangePreviewQuerySchema,
  ZSubscriptionChangeRequestSchema,
  ZUndoRemovalRequestSchema,
} from './subscription-change.ts';

describe('subscription change requests (R10)', () => {
  it('the preview query: comma-separated codes, at least one, the selection rules apply', () => {
    expect(ZSubscriptionChangePreviewQuerySchema.parse({ codes: 'NADA,NADA_S' })).toEqual({
      codes: ['NADA', 'NADA_S'],
    });
    // Every subscription stops by cancelling, never by a change to nothing.
    const none = ZSubscriptionChangePreviewQuerySchema.safeParse({ codes: '' });
    expect(none.error?.issues[0]?.message).toBe('At least one subscription is required.');
    for (const codes of ['NADA_S', 'GALVES_S,GALVES', 'BOGUS', 'NADA,NADA']) {
      expect(ZSubscriptionChangePreviewQuerySchema.safeParse({ codes }).success, codes).toBe(false);
    }
    expect(ZSubscriptionChangePreviewQuerySchema.safeParse({ codes: 'NADA', x: 1 }).success).toBe(
      false,
    );
  });

  it('the change: a valid selection, a UUID key and the selection it was based on, nothing else', () => {
    const key = '0b9a5f8e-7f63-4a43-9f0e-3b0d1f4c2a11';
    const basedOn = { codes: ['NADA'], pendingRemovals: [] };
    expect(
      ZSubscriptionChangeRequestSchema.parse({ codes: ['KBB'], idempotencyKey: key, basedOn }),
    ).toEqual({ codes: ['KBB'], idempotencyKey: key, basedOn });
    expect(
      ZSubscriptionChangeRequestSchema.safeParse({ codes: ['KBB'], idempotencyKey: 'k', basedOn })
        .success,
    ).toBe(false);
    expect(
      ZSubscriptionChangeRequestSchema.safeParse({ codes: ['KBB_S'], idempotencyKey: key, basedOn })
        .success,
    ).toBe(false);
    expect(
      ZSubscriptionChangeRequestSchema.safeParse({ codes: [], idempotencyKey: key, basedOn }).error
        ?.issues[0]?.message,
    ).toBe('At least one subscription is required.');
    // Decision 035: the basis is required, and names catalogue codes only.
    expect(
      ZSubscriptionChangeRequestSchema.safeParse({ codes: ['KBB'], idempotencyKey: key }).success,
    ).toBe(false);
    expect(
      ZSubscriptionChangeRequestSchema.safeParse({
        codes: ['KBB'],
        idempotencyKey: key,
        basedOn: { codes: ['BOGUS'], pendingRemovals: [] },
      }).success,
    ).toBe(false);
  });

  it('undo: one selectable code', () => {
    expect(ZUndoRemovalRequestSchema.parse({ code: 'MMR' })).toEqual({ code: 'MMR' });
    expect(ZUndoRemovalRequestSchema.safeParse({ code: 'GALVES_S' }).success).toBe(false);
    expect(ZUndoRemovalRequestSchema.safeParse({ code: 7 }).success).toBe(false);
  });
});
