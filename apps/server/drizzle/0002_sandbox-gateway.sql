CREATE TABLE "authorize_net_operations" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"transaction_id" text,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_gateway_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_customer_id" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_gateway_payment_profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"card_brand" text NOT NULL,
	"card_last4" text NOT NULL,
	"card_expiration" text NOT NULL,
	"behaviour" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_gateway_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"card_brand" text NOT NULL,
	"card_last4" text NOT NULL,
	"card_expiration" text NOT NULL,
	"behaviour" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_gateway_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"decline_reason" text,
	"amount_cents" integer NOT NULL,
	"payment_profile_id" text,
	"charge_id" text,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_gateway_transactions_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "sandbox_gateway_payment_profiles" ADD CONSTRAINT "sandbox_gateway_payment_profiles_customer_id_sandbox_gateway_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."sandbox_gateway_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_gateway_transactions" ADD CONSTRAINT "sandbox_gateway_transactions_payment_profile_id_sandbox_gateway_payment_profiles_id_fk" FOREIGN KEY ("payment_profile_id") REFERENCES "public"."sandbox_gateway_payment_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_gateway_payment_profiles_customer_idx" ON "sandbox_gateway_payment_profiles" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "sandbox_gateway_tokens_expires_idx" ON "sandbox_gateway_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sandbox_gateway_transactions_charge_idx" ON "sandbox_gateway_transactions" USING btree ("charge_id");