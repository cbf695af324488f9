CREATE TABLE "failure_budgets" (
	"budget_key" text PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Failures of the last hour carry over (docs/decisions/029): a deployment does not reset budgets.
INSERT INTO "failure_budgets" ("budget_key", "taken_at", "expires_at")
SELECT "account_key", array_agg("at" ORDER BY "at"), max("at") + interval '1 hour'
FROM "sign_in_failures"
WHERE "at" > now() - interval '1 hour'
GROUP BY "account_key";--> statement-breakpoint
DROP TABLE "sign_in_failures" CASCADE;--> statement-breakpoint
CREATE INDEX "failure_budgets_expires_idx" ON "failure_budgets" USING btree ("expires_at");
