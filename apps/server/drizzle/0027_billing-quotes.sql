CREATE TABLE "billing_quotes" (
	"id" uuid NOT NULL,
	"quote" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "quote_id" uuid;--> statement-breakpoint
CREATE INDEX "billing_quotes_id_idx" ON "billing_quotes" USING btree ("id");--> statement-breakpoint
-- Decision 062: each payment names its period's quote by an id made of the quote's text (its MD5
-- as a UUID: jsonb writes a value's text one way only, so equal quotes have equal ids), and the
-- quote is stored in billing_quotes. The finance export then reads a handful of quotes for a
-- month instead of looking up every row's period. Kept by triggers, so no writer of payments or
-- periods has to know.
--
-- A period's quote stored unless it is already, and its id; null when there is no such period.
-- The id is not unique, so a writer never waits for another's uncommitted quote: two billing
-- batches storing the same two new quotes in opposite orders would otherwise wait for each other
-- until PostgreSQL ended one as a deadlock. Two writers storing the same new quote at once both
-- keep it; readers take the copies as one.
CREATE FUNCTION "billing_quote_of_period"("period_id" uuid) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  "period_quote" jsonb;
  "period_quote_id" uuid;
BEGIN
  SELECT bp."quote" INTO "period_quote" FROM "billing_periods" bp WHERE bp."id" = "period_id";
  IF "period_quote" IS NULL THEN
    RETURN NULL;
  END IF;
  "period_quote_id" := md5("period_quote"::text)::uuid;
  IF NOT EXISTS (SELECT FROM "billing_quotes" q WHERE q."id" = "period_quote_id") THEN
    INSERT INTO "billing_quotes" ("id", "quote") VALUES ("period_quote_id", "period_quote");
  END IF;
  RETURN "period_quote_id";
END;
$$;--> statement-breakpoint
-- The quotes of the payments already written, then the payments' ids of them.
INSERT INTO "billing_quotes" ("id", "quote")
SELECT DISTINCT ON (md5(bp."quote"::text)) md5(bp."quote"::text)::uuid, bp."quote"
  FROM "payments" p JOIN "billing_periods" bp ON bp."id" = p."billing_period_id";--> statement-breakpoint
UPDATE "payments" p SET "quote_id" = md5(bp."quote"::text)::uuid
  FROM "billing_periods" bp WHERE bp."id" = p."billing_period_id";--> statement-breakpoint
-- A payment written, or moved to another period (nothing does today): its period's quote.
CREATE FUNCTION "payments_set_quote"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."quote_id" := "billing_quote_of_period"(NEW."billing_period_id");
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "payments_quote_on_insert" BEFORE INSERT ON "payments"
FOR EACH ROW EXECUTE FUNCTION "payments_set_quote"();--> statement-breakpoint
CREATE TRIGGER "payments_quote_on_period_change" BEFORE UPDATE OF "billing_period_id" ON "payments"
FOR EACH ROW WHEN (OLD."billing_period_id" IS DISTINCT FROM NEW."billing_period_id")
EXECUTE FUNCTION "payments_set_quote"();--> statement-breakpoint
-- A paid period's quote changed (a reactivation settles its period with the quote it charged):
-- its payment follows.
CREATE FUNCTION "payments_follow_period_quote"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "payments" SET "quote_id" = "billing_quote_of_period"(NEW."id")
   WHERE "billing_period_id" = NEW."id";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "payments_quote_on_period_quote_update" AFTER UPDATE OF "quote" ON "billing_periods"
FOR EACH ROW WHEN (OLD."quote" IS DISTINCT FROM NEW."quote")
EXECUTE FUNCTION "payments_follow_period_quote"();
