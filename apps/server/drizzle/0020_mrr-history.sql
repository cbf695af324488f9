CREATE TABLE "account_mrr_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_mrr_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	"status" text NOT NULL,
	"complimentary" boolean NOT NULL,
	"cadence" text DEFAULT 'monthly' NOT NULL,
	"codes" text[] NOT NULL,
	"monthly_cents" integer NOT NULL,
	"mrr_cents" integer NOT NULL,
	"movement" text,
	"cause" text,
	"reason" text,
	"dunning_since" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "account_mrr_history" ADD CONSTRAINT "account_mrr_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_mrr_history_user_idx" ON "account_mrr_history" USING btree ("user_id","valid_from");--> statement-breakpoint
CREATE INDEX "account_mrr_history_from_idx" ON "account_mrr_history" USING btree ("valid_from");--> statement-breakpoint
CREATE INDEX "account_mrr_history_movement_idx" ON "account_mrr_history" USING btree ("valid_from","movement") WHERE movement is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "account_mrr_history_open_uq" ON "account_mrr_history" USING btree ("user_id") WHERE valid_to is null;--> statement-breakpoint
CREATE INDEX "payments_activation_date_idx" ON "payments" USING btree ("activation_date");--> statement-breakpoint
CREATE INDEX "payments_refunded_at_idx" ON "payments" USING btree ("refunded_at") WHERE refunded_at is not null;--> statement-breakpoint
CREATE INDEX "payments_charged_back_at_idx" ON "payments" USING btree ("charged_back_at") WHERE charged_back_at is not null;--> statement-breakpoint
CREATE INDEX "refunds_settled_at_idx" ON "refunds" USING btree ("settled_at");