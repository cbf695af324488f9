CREATE TABLE "card_expiry_reminders" (
	"user_id" uuid NOT NULL,
	"card_last4" text NOT NULL,
	"card_expiration" text NOT NULL,
	"threshold_days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_expiry_reminders_user_id_card_last4_card_expiration_threshold_days_pk" PRIMARY KEY("user_id","card_last4","card_expiration","threshold_days")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "automatic" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "card_expiry_reminders" ADD CONSTRAINT "card_expiry_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;