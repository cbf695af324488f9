/**
 * The billing run's receipt renderer (decision 067): on threads or not, every receipt comes back
 * as the same bytes, in the order given, and a receipt that cannot be rendered fails its render
 * without stopping the next one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { IReceipt } from '../../src/services/receipts/render-receipt.ts';
import {
  inlineReceiptRenderer,
  threadedReceiptRenderer,
} from '../../src/services/receipts/receipt-renderer.ts';
import { sampleReceipt } from '../../src/services/receipts/sample-receipt.ts';
import { currentReceiptParts, unpackReceipt } from '../../src/services/receipts/stored-receipt.ts';

const threaded = threadedReceiptRenderer(2);
afterAll(async () => {
  await threaded.close();
});

/** Twenty receipts that differ as a batch's do: their payments, names and one accented name. */
const batch: IReceipt[] = Array.from({ length: 20 }, (_, i) =>
  sampleReceipt({
    paymentId: `pay_renderer_${i}`,
    account: {
      dealerpassUserId: `dealer${i}@example.com`,
      name: i === 7 ? 'Zoë Müller' : `Casey Dealer ${i}`,
      email: `dealer${i}@example.com`,
    },
  }),
);

const parts = currentReceiptParts();
const byDigest = new Map(
  [parts.dictionary, ...parts.fonts].map((part) => [part.digest.toString('hex'), part.data]),
);

describe('the receipt renderer', () => {
  it('gives on threads the very bytes the calling thread gives, in the order given', async () => {
    const here = await inlineReceiptRenderer().render(batch);
    const there = await threaded.render(batch);
    expect(there).toHaveLength(batch.length);
    there.forEach((columns, i) => {
      expect(columns.receiptPdf.equals(here[i]!.receiptPdf)).toBe(true);
      expect(columns.receiptCrc32).toBe(here[i]!.receiptCrc32);
    });
    // Each one is its own receipt: the payment id printed on it is the one asked for.
    const pdf = unpackReceipt(there[13]!.receiptPdf, (digest) => byDigest.get(digest));
    expect(pdf.toString('latin1')).toContain('pay_renderer_13');
  });

  it('fails a render whose receipt cannot be made, and renders the next one', async () => {
    const broken = [...batch];
    // A total that is not the sum of its lines is refused by the renderer.
    broken[3] = { ...batch[3]!, totalCents: batch[3]!.totalCents + 1 };
    await expect(threaded.render(broken)).rejects.toThrow(/total/i);
    const after = await threaded.render(batch.slice(0, 10));
    expect(after).toHaveLength(10);
  });

  it('renders a few receipts on the calling thread, and refuses once closed', async () => {
    const renderer = threadedReceiptRenderer(1);
    expect(await renderer.render(batch.slice(0, 2))).toHaveLength(2);
    await renderer.close();
    await expect(renderer.render(batch)).rejects.toThrow('the receipt renderer is closed');
  });

  it('renders here what a thread that cannot start was given, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'receipt-thread-'));
    try {
      const broken = join(dir, 'broken-worker.mjs');
      writeFileSync(broken, "throw new Error('no thread today');\n");
      const stopped: string[] = [];
      const renderer = threadedReceiptRenderer(2, {
        workerUrl: pathToFileURL(broken),
        onThreadStopped: (error) => stopped.push(error.message),
      });
      const here = await inlineReceiptRenderer().render(batch);
      const given = await renderer.render(batch);
      expect(given.map((columns) => columns.receiptPdf.toString('hex'))).toEqual(
        here.map((columns) => columns.receiptPdf.toString('hex')),
      );
      expect(stopped).toHaveLength(2);
      expect(stopped[0]).toContain('no thread today');
      // Stopped twice more (three in a row): the renderer gives threads up and starts no more.
      await renderer.render(batch);
      expect(stopped).toHaveLength(4);
      await renderer.render(batch);
      expect(stopped).toHaveLength(4);
      await renderer.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
