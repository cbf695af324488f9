ALTER TABLE "payments" ADD COLUMN "refund_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_claimed_cents" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charged_back_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_gateway_transaction_idx" ON "payments" USING btree ("gateway_transaction_id");--> statement-breakpoint
CREATE INDEX "payments_card_last4_idx" ON "payments" USING btree ("card_last4");--> statement-breakpoint
-- Chargebacks recorded before the column existed, from their account events.
UPDATE "payments" SET "charged_back_at" = "e"."at"
FROM (
  SELECT ("details"->>'paymentId') AS "payment_id", min("at") AS "at"
  FROM "account_events"
  WHERE "event" = 'chargeback' AND "details"->>'paymentId' IS NOT NULL
  GROUP BY 1
) AS "e"
WHERE "payments"."id"::text = "e"."payment_id";
