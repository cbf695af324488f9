import type { PaymentGateway } from '../../../adapters/payments/payment-gateway.ts';
import type { Database } from '../../../db/client.ts';
import type { InvoicingConfig } from '../../../config.ts';
import type { PriceBook } from '../../prices/price-book.ts';
import type { IReceiptRenderer } from '../../receipts/receipt-renderer.ts';

export interface BillingDeps {
  db: Database;
  payments: PaymentGateway;
  now: () => Date;
  timeZone: string;
  company: { name: string; supportPhone: string };
  mailKind: 'smtp' | 'mailbox';
  /** The dated price table (R11): every amount charged is quoted from it at the charge's instant. */
  prices: PriceBook;
  /** Where the run reports charges it will retry; a Fastify logger or the console. */
  log: { warn(details: object, message: string): void };
  /** R14's invoices (prefix, seller, remit-to); DEFAULT_INVOICING when not given (tests). */
  invoicing?: InvoicingConfig;
  /**
   * Renders the run's receipts (decision 067): threads beside the run's own in the server;
   * on the calling thread when not given.
   */
  receipts?: IReceiptRenderer;
  /** How often a live run renews its leases (default LEASE_RENEWAL_MS; tests shorten it). */
  leaseRenewalMs?: number;
}

export interface BillingRunResult {
  charged: number;
  declined: number;
  deactivated: number;
  retryLater: number;
  /** The gateway's reason for the last decline (an account's own run reports its one). */
  declineReason?: string;
}

export interface ClaimedRenewal {
  userId: string;
  periodId: string;
  /**
   * 'renewal' (the run), 'reactivation' (PUT /api/users/reactivate, or the run finishing one
   * after a crash), or 'change' (a subscription change's prorated charge, R10).
   */
  kind?: 'renewal' | 'reactivation' | 'change';
  idempotencyKey: string;
  amountCents: number;
  customerProfileId: string;
  paymentProfileId: string;
  /** The card the attempt charges, for the receipt (the account's card on file otherwise). */
  cardBrand?: string | null;
  cardLast4?: string | null;
}

/** An approved charge of a claimed period, waiting to be recorded. */
export interface ApprovedCharge {
  renewal: ClaimedRenewal;
  transactionId: string;
}
