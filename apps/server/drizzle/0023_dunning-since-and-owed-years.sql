-- R4 (docs/decisions/052): when an unpaid renewal first failed, or a check was returned; the
-- retries fall 1, 3 and 5 days after it.
-- R14: the years owed after a returned check, which the billing run's claim looks for on every
-- batch: a handful of rows, found without reading the whole table.
ALTER TABLE "subscriptions" ADD COLUMN "dunning_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "billing_periods_owed_year_idx" ON "billing_periods" USING btree ("user_id") WHERE kind = 'annual' and status = 'due';
