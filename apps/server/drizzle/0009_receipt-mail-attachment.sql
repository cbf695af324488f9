-- A receipt e-mail names the payment whose stored PDF it carries (issue 14): one copy of the PDF.
ALTER TABLE "mail_outbox" ADD COLUMN "receipt_payment_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_receipt_payment_id_payments_id_fk" FOREIGN KEY ("receipt_payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;