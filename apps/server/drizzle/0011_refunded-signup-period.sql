-- A sign-up period whose charge was refunded in the trial (R4) is marked 'refunded' and is no
-- longer one of the account's periods, so a reactivation may open a period on the same day.
UPDATE "billing_periods" SET "status" = 'refunded'
WHERE "kind" = 'signup'
  AND EXISTS (
    SELECT 1 FROM "payments"
    WHERE "payments"."billing_period_id" = "billing_periods"."id" AND "payments"."status" = 'refunded'
  );--> statement-breakpoint
DROP INDEX "billing_periods_user_period_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "billing_periods_user_period_uq" ON "billing_periods" USING btree ("user_id","period_start") WHERE kind <> 'change' and status <> 'refunded';
