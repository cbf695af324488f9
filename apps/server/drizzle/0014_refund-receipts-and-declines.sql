CREATE TABLE "payment_declines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"billing_period_id" uuid,
	"kind" text NOT NULL,
	"attempt" integer,
	"reason" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "receipt_refund_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_declines" ADD CONSTRAINT "payment_declines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_declines" ADD CONSTRAINT "payment_declines_billing_period_id_billing_periods_id_fk" FOREIGN KEY ("billing_period_id") REFERENCES "public"."billing_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_declines_user_idx" ON "payment_declines" USING btree ("user_id","at");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_receipt_refund_id_refunds_id_fk" FOREIGN KEY ("receipt_refund_id") REFERENCES "public"."refunds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Declines recorded before this table existed, from the status changes that named them.
INSERT INTO "payment_declines" ("user_id", "kind", "reason", "at")
SELECT "user_id",
  CASE WHEN "event" LIKE 'reactivation declined: %' THEN 'reactivation' ELSE 'renewal' END,
  regexp_replace("event", '^(renewal|last retry|reactivation) declined: ', ''),
  "at"
FROM "account_events"
WHERE "event" LIKE 'renewal declined: %'
  OR "event" LIKE 'last retry declined: %'
  OR "event" LIKE 'reactivation declined: %';
