-- The provider's rows were keyed by their ids, which are the tokens, codes and session ids
-- themselves (issue 13). Rows are now keyed by keyed hashes and their payloads sealed; the old
-- rows cannot be converted without the key and live at most a day or two, so they go: open
-- provider sessions and tokens end, and their users sign in again.
DELETE FROM "oidc_payloads";--> statement-breakpoint
ALTER TABLE "oidc_payloads" ADD COLUMN "payload_enc" text NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_payloads" DROP COLUMN "payload";--> statement-breakpoint
-- A sign-up no longer keeps the one-time payment token once the gateway has it.
UPDATE "signup_attempts" SET "request" = "request" - 'paymentToken';
