-- The balance becomes the sum of an account's entries (issue 14): no stored total to forget.
CREATE TABLE "balance_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"source" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_entries_source_unique" UNIQUE("source")
);
--> statement-breakpoint
ALTER TABLE "balance_entries" ADD CONSTRAINT "balance_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_entries_user_idx" ON "balance_entries" USING btree ("user_id");--> statement-breakpoint
-- Balances kept so far (fees, renewals whose last retry failed, a migrated account's) become
-- each account's opening entry.
INSERT INTO "balance_entries" ("user_id", "kind", "amount_cents", "source")
SELECT "id", 'opening', "balance_cents", 'opening:' || "id" FROM "users" WHERE "balance_cents" <> 0;--> statement-breakpoint
-- A renewal still being retried was not in that total; it is owed now, and its payment settles it.
INSERT INTO "balance_entries" ("user_id", "kind", "amount_cents", "source")
SELECT "user_id", 'charge', "amount_cents", 'charge:' || "id" FROM "billing_periods"
WHERE "kind" = 'renewal' AND "status" = 'due' AND "attempt" > 1;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "balance_cents";--> statement-breakpoint
-- A receipt e-mail names the payment whose stored PDF it carries (issue 14): one copy of the PDF.
ALTER TABLE "mail_outbox" ADD COLUMN "receipt_payment_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_receipt_payment_id_payments_id_fk" FOREIGN KEY ("receipt_payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;