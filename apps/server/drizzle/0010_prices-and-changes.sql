CREATE TABLE "price_change_notices" (
	"user_id" uuid NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"old_total_cents" integer NOT NULL,
	"new_total_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_change_notices_user_id_effective_from_pk" PRIMARY KEY("user_id","effective_from")
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item" text NOT NULL,
	"effective_from" timestamp with time zone,
	"cents" integer NOT NULL,
	"scheduled_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prices_cents_check" CHECK ("prices"."cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "subscription_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"codes_before" text[] NOT NULL,
	"codes_requested" text[] NOT NULL,
	"amount_cents" integer NOT NULL,
	"billing_period_id" uuid,
	"result" jsonb,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "billing_periods_user_period_uq";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pending_removals" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pending_removals_at" date;--> statement-breakpoint
ALTER TABLE "price_change_notices" ADD CONSTRAINT "price_change_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_changes" ADD CONSTRAINT "subscription_changes_billing_period_id_billing_periods_id_fk" FOREIGN KEY ("billing_period_id") REFERENCES "public"."billing_periods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prices_item_idx" ON "prices" USING btree ("item","effective_from");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_changes_key_uq" ON "subscription_changes" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_changes_in_flight_uq" ON "subscription_changes" USING btree ("user_id") WHERE status = 'charging';--> statement-breakpoint
CREATE UNIQUE INDEX "billing_periods_user_period_uq" ON "billing_periods" USING btree ("user_id","period_start") WHERE kind <> 'change';--> statement-breakpoint
-- R11: the table starts as R3's (packages/domain R3_PRICE_TABLE), so every date prices as before.
INSERT INTO "prices" ("item", "effective_from", "cents", "scheduled_by") VALUES
	('APG', NULL, 6500, 'seed'), ('NADA', NULL, 6500, 'seed'), ('GALVES', NULL, 6500, 'seed'),
	('BBK', NULL, 6500, 'seed'), ('KBB', NULL, 6500, 'seed'), ('ANET', NULL, 6500, 'seed'),
	('MMR', NULL, 8000, 'seed'), ('RETAIL', NULL, 3500, 'seed'), ('WHLSLE', NULL, 3500, 'seed'),
	('PMR', NULL, 6500, 'seed'), ('CF', NULL, 5500, 'seed'), ('AC', NULL, 5500, 'seed'),
	('NADA', '2025-01-01T05:00:00Z', 7000, 'seed'), ('MMR', '2025-01-01T05:00:00Z', 6500, 'seed'),
	('SIMULCAST', NULL, 3500, 'seed'),
	('PLATFORM_FEE', NULL, 0, 'seed'), ('PLATFORM_FEE', '2025-09-02T05:00:00Z', 300, 'seed');
