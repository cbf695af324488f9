-- R14: the years owed after a returned check, which the billing run's claim looks for on every
-- batch (docs/decisions/052): a handful of rows, found without reading the whole table.
CREATE INDEX "billing_periods_owed_year_idx" ON "billing_periods" USING btree ("user_id") WHERE kind = 'annual' and status = 'due';
