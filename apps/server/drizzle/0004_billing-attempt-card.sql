ALTER TABLE "billing_periods" ADD COLUMN "gateway_customer_id" text;--> statement-breakpoint
ALTER TABLE "billing_periods" ADD COLUMN "gateway_payment_profile_id" text;--> statement-breakpoint
ALTER TABLE "billing_periods" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "billing_periods" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_crc32" bigint;