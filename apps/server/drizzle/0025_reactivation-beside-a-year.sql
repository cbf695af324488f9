-- R14, R4 (docs/decisions/060): a reactivation is once per account and day by an index of its
-- own, beside the account's other periods, so one may start on the first day of a year paid by
-- check; the other billed periods stay one per start date.
DROP INDEX "billing_periods_user_period_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "billing_periods_user_reactivation_uq" ON "billing_periods" USING btree ("user_id","period_start") WHERE kind = 'reactivation' and status <> 'refunded';--> statement-breakpoint
CREATE UNIQUE INDEX "billing_periods_user_period_uq" ON "billing_periods" USING btree ("user_id","period_start") WHERE kind not in ('change', 'reactivation') and status <> 'refunded';