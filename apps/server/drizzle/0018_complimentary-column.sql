-- Complimentary was the text 'complimentary' in account_status_details, parsed in seven places
-- (issue 26): it becomes a boolean column, backfilled from the text, which no longer holds it.
ALTER TABLE "users" ADD COLUMN "complimentary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "users" SET "complimentary" = true WHERE lower(btrim("account_status_details")) = 'complimentary';--> statement-breakpoint
UPDATE "users" SET "account_status_details" = NULL WHERE "complimentary";
