CREATE TABLE "promotion_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone,
	"max_redemptions" integer,
	"redemption_count" integer DEFAULT 0 NOT NULL,
	"requires_card" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_codes_value_ck" CHECK ("promotion_codes"."value" > 0),
	CONSTRAINT "promotion_codes_percent_ck" CHECK ("promotion_codes"."kind" <> 'percent_off' or "promotion_codes"."value" <= 100),
	CONSTRAINT "promotion_codes_months_ck" CHECK ("promotion_codes"."kind" <> 'free_months' or "promotion_codes"."value" <= 12),
	CONSTRAINT "promotion_codes_limit_ck" CHECK ("promotion_codes"."max_redemptions" is null or "promotion_codes"."redemption_count" <= "promotion_codes"."max_redemptions")
);
--> statement-breakpoint
CREATE TABLE "promotion_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"user_id" uuid NOT NULL,
	"discount_cents" integer NOT NULL,
	"redeemed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_redemptions_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "signup_attempts" (
	"email" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"request_hash" text NOT NULL,
	"status" text NOT NULL,
	"user_id" uuid NOT NULL,
	"request" jsonb NOT NULL,
	"promotion_code" text,
	"amount_cents" integer NOT NULL,
	"gateway_customer_id" text,
	"gateway_payment_profile_id" text,
	"card_brand" text,
	"card_last4" text,
	"card_expiration" text,
	"charge_key" text,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signup_leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"dealership_name" text NOT NULL,
	"term_and_condition" text NOT NULL,
	"subscription_selection" text[] DEFAULT '{}'::text[] NOT NULL,
	"dealership_address1" text,
	"dealership_address2" text,
	"dealership_country" text,
	"dealership_state" text,
	"dealership_city" text,
	"dealership_postal_code" text,
	"user_auction_access_id" text,
	"dealership_auction_access_id" text,
	"step" integer DEFAULT 0 NOT NULL,
	"converted_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_code_promotion_codes_code_fk" FOREIGN KEY ("code") REFERENCES "public"."promotion_codes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_leads" ADD CONSTRAINT "signup_leads_converted_user_id_users_id_fk" FOREIGN KEY ("converted_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promotion_redemptions_code_idx" ON "promotion_redemptions" USING btree ("code");--> statement-breakpoint
CREATE INDEX "signup_leads_email_idx" ON "signup_leads" USING btree ("email");