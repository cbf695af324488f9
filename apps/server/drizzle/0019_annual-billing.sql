CREATE TABLE "checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"number" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"received_on" date NOT NULL,
	"payment_id" uuid NOT NULL,
	"billing_period_id" uuid NOT NULL,
	"returned_on" date,
	"return_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"prefix" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "invoice_counters_prefix_year_pk" PRIMARY KEY("prefix","year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"issued_on" date NOT NULL,
	"due_on" date NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"next_start" date NOT NULL,
	"codes" text[] NOT NULL,
	"lines" jsonb NOT NULL,
	"discount_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"quote" jsonb NOT NULL,
	"seller" jsonb NOT NULL,
	"bill_to" jsonb NOT NULL,
	"pdf" "bytea" NOT NULL,
	"voided_on" date,
	"voided_by" text,
	"void_reason" text,
	"paid_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "annual_period_start" date;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "annual_period_end" date;--> statement-breakpoint
ALTER TABLE "checks" ADD CONSTRAINT "checks_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checks" ADD CONSTRAINT "checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checks" ADD CONSTRAINT "checks_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checks" ADD CONSTRAINT "checks_billing_period_id_billing_periods_id_fk" FOREIGN KEY ("billing_period_id") REFERENCES "public"."billing_periods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checks_standing_uq" ON "checks" USING btree ("invoice_id") WHERE returned_on is null;--> statement-breakpoint
CREATE INDEX "checks_user_idx" ON "checks" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_open_uq" ON "invoices" USING btree ("user_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "invoices_user_idx" ON "invoices" USING btree ("user_id","issued_on");--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("due_on") WHERE status = 'open';--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- R14: an issued invoice never changes what it says; only its status moves on (open to paid or
-- void, never back), with the date and who or why. A correction is a void and a new invoice.
CREATE FUNCTION "invoices_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id IS DISTINCT FROM OLD.id OR NEW.user_id IS DISTINCT FROM OLD.user_id
    OR NEW.number IS DISTINCT FROM OLD.number OR NEW.kind IS DISTINCT FROM OLD.kind
    OR NEW.issued_on IS DISTINCT FROM OLD.issued_on OR NEW.due_on IS DISTINCT FROM OLD.due_on
    OR NEW.period_start IS DISTINCT FROM OLD.period_start
    OR NEW.period_end IS DISTINCT FROM OLD.period_end
    OR NEW.next_start IS DISTINCT FROM OLD.next_start OR NEW.codes IS DISTINCT FROM OLD.codes
    OR NEW.lines IS DISTINCT FROM OLD.lines OR NEW.discount_cents IS DISTINCT FROM OLD.discount_cents
    OR NEW.total_cents IS DISTINCT FROM OLD.total_cents OR NEW.quote IS DISTINCT FROM OLD.quote
    OR NEW.seller IS DISTINCT FROM OLD.seller OR NEW.bill_to IS DISTINCT FROM OLD.bill_to
    OR NEW.pdf IS DISTINCT FROM OLD.pdf THEN
    RAISE EXCEPTION 'invoice % is issued and cannot change', OLD.number;
  END IF;
  IF OLD.status <> 'open' AND NEW.status IS DISTINCT FROM OLD.status
    AND NOT (OLD.status = 'paid' AND NEW.status = 'void') THEN
    RAISE EXCEPTION 'invoice % is % and cannot become %', OLD.number, OLD.status, NEW.status;
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "invoices_no_rewrite" BEFORE UPDATE ON "invoices"
FOR EACH ROW EXECUTE FUNCTION "invoices_immutable"();--> statement-breakpoint
CREATE FUNCTION "invoices_no_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An account's deletion takes its invoices with it (the cascade); nothing else removes one.
  IF EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD.user_id) THEN
    RAISE EXCEPTION 'invoice % is issued and cannot be deleted', OLD.number;
  END IF;
  RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "invoices_keep" BEFORE DELETE ON "invoices"
FOR EACH ROW EXECUTE FUNCTION "invoices_no_delete"();
