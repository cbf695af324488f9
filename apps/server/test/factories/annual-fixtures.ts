import { eq } from 'drizzle-orm';
import { invoices } from '../../src/db/schema.ts';
import { requestAnnualBilling } from '../../src/services/annual-billing/request-annual-billing.ts';
import { renewingDealer } from './admin-fixtures.ts';
import type { TestApp } from '../support/helper.ts';

/**
 * An active monthly dealer with a card, charged today for the period to the next bill date (the
 * anchor's day), and, when asked, the annual invoice it requested (R14) through the service.
 */
export async function annualDealer(
  t: TestApp,
  input: {
    now: Date;
    today: string;
    previous: string;
    card?: string;
    codes?: string[];
    invoice?: boolean;
  },
) {
  const { user, payment, customer } = await renewingDealer(t, input);
  if (!input.invoice) return { user, payment, customer, invoice: null };
  const view = await requestAnnualBilling(t.app.db, t.app.deps.billing, {
    userId: user.id,
    now: input.now,
    body: { requestKey: crypto.randomUUID() },
    params: {},
  });
  const [invoice] = await t.app.db.select().from(invoices).where(eq(invoices.id, view.id));
  return { user, payment, customer, invoice: invoice! };
}
