CREATE TABLE "request_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"body_hash" text,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Keys taken before this table existed (docs/decisions/031): their first answers were not kept,
-- so a reuse of one is refused (a null body hash matches no request) instead of acting again.
INSERT INTO "request_keys" ("key", "owner", "action", "target", "created_at")
SELECT "request_key", 'staff:' || "staff_id", "action", coalesce("user_id"::text, '{}'), "at"
FROM "staff_audit" WHERE "request_key" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "request_keys" ("key", "owner", "action", "target", "created_at")
SELECT "request_key", 'staff:' || "staff_id", 'refund', "payment_id"::text, "created_at"
FROM "refunds"
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "request_keys" ("key", "owner", "action", "target", "created_at")
SELECT "idempotency_key", 'user:' || "user_id", 'changeSubscription', "user_id"::text, "created_at"
FROM "subscription_changes"
ON CONFLICT DO NOTHING;
