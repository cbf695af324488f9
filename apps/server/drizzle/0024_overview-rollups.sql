CREATE TABLE "mrr_rollup" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mrr_rollup_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revenue_rollup" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "revenue_rollup_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"business_date" date NOT NULL,
	"part" text NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mrr_rollup_at_idx" ON "mrr_rollup" USING btree ("at");--> statement-breakpoint
CREATE INDEX "revenue_rollup_date_idx" ON "revenue_rollup" USING btree ("business_date","part","code");--> statement-breakpoint
CREATE INDEX "account_mrr_history_to_idx" ON "account_mrr_history" USING btree ("valid_to") WHERE valid_to is not null;--> statement-breakpoint
CREATE INDEX "account_mrr_history_recovered_idx" ON "account_mrr_history" USING btree ("dunning_since") WHERE movement = 'dunningRecovered';--> statement-breakpoint
CREATE INDEX "users_status_idx" ON "users" USING btree ("account_status","complimentary");--> statement-breakpoint
-- Decision 051: the overview's rollups, kept by triggers in the statement that writes the ledger
-- or the MRR history, so no writer (the billing run, a sign-up, a check, the demo data, a test's
-- factory, a bulk load) can leave them behind. Each row is a change; a figure is a sum of rows.
--
-- What one payment adds to the revenue rollup: its amount (`paid`), its period's platform fee
-- (`fee`) and its period's quote lines by code (`item`), as the overview read them from the quote.
-- A quote that is not what the domain writes (no lines, cents that are not a whole number) adds no
-- item, so it can never stop a payment from being recorded; the overview shows the difference as
-- an adjustment, as it does for a promotion.
CREATE FUNCTION "revenue_parts"("amount_cents" bigint, "quote" jsonb)
RETURNS TABLE ("part" text, "code" text, "cents" bigint) LANGUAGE sql IMMUTABLE AS $$
  -- CASE, not WHERE, guards each cast: a WHERE does not stop the planner from computing a cast of
  -- a constant first, a CASE arm whose test is false is never computed.
  SELECT "part", "code", "cents" FROM (
    SELECT 'paid' AS "part", '' AS "code", "amount_cents" AS "cents"
    UNION ALL
    SELECT 'fee', '', CASE WHEN "quote"->>'platformFeeCents' ~ '^-?[0-9]{1,15}$'
      THEN ("quote"->>'platformFeeCents')::bigint END
    UNION ALL
    SELECT 'item', coalesce("line"->>'code', ''), CASE WHEN "line"->>'cents' ~ '^-?[0-9]{1,15}$'
      THEN ("line"->>'cents')::bigint END
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof("quote"->'lines') = 'array'
        THEN "quote"->'lines' ELSE '[]'::jsonb END) AS "line"
  ) "parts"
  WHERE "cents" IS NOT NULL
$$;--> statement-breakpoint
-- New payments, a statement at a time (a billing run's batch is one statement): one row per date,
-- part and code.
CREATE FUNCTION "revenue_rollup_payments_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "revenue_rollup" ("business_date", "part", "code", "cents")
  SELECT n."activation_date", x."part", x."code", sum(x."cents")
    FROM "new_payments" n
    LEFT JOIN "billing_periods" bp ON bp."id" = n."billing_period_id"
    CROSS JOIN LATERAL "revenue_parts"(n."amount_cents", bp."quote") x
   GROUP BY 1, 2, 3
  HAVING sum(x."cents") <> 0;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "revenue_rollup_on_payment_insert" AFTER INSERT ON "payments"
REFERENCING NEW TABLE AS "new_payments"
FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_payments_inserted"();--> statement-breakpoint
-- A payment's amount, date or period changed (nothing does today), or the payment deleted (with
-- its account): what it added is taken back, and its new parts added. The delete is counted
-- before the row goes, while its period is still there to read: an account's deletion removes its
-- payments and periods in an order of its own, and the period's own trigger below covers the
-- other order.
CREATE FUNCTION "revenue_rollup_payment_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "revenue_rollup" ("business_date", "part", "code", "cents")
  SELECT OLD."activation_date", x."part", x."code", -x."cents"
    FROM "revenue_parts"(OLD."amount_cents",
      (SELECT "quote" FROM "billing_periods" WHERE "id" = OLD."billing_period_id")) x
   WHERE x."cents" <> 0;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  INSERT INTO "revenue_rollup" ("business_date", "part", "code", "cents")
  SELECT NEW."activation_date", x."part", x."code", x."cents"
    FROM "revenue_parts"(NEW."amount_cents",
      (SELECT "quote" FROM "billing_periods" WHERE "id" = NEW."billing_period_id")) x
   WHERE x."cents" <> 0;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "revenue_rollup_on_payment_update" AFTER UPDATE OF "amount_cents", "activation_date", "billing_period_id" ON "payments"
FOR EACH ROW WHEN (OLD."amount_cents" IS DISTINCT FROM NEW."amount_cents"
  OR OLD."activation_date" IS DISTINCT FROM NEW."activation_date"
  OR OLD."billing_period_id" IS DISTINCT FROM NEW."billing_period_id")
EXECUTE FUNCTION "revenue_rollup_payment_changed"();--> statement-breakpoint
CREATE TRIGGER "revenue_rollup_on_payment_delete" BEFORE DELETE ON "payments"
FOR EACH ROW EXECUTE FUNCTION "revenue_rollup_payment_changed"();--> statement-breakpoint
-- A paid period's quote changed (nothing does today) or the period deleted while its payment is
-- still there: the fee and items follow the quote.
CREATE FUNCTION "revenue_rollup_period_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "revenue_rollup" ("business_date", "part", "code", "cents")
  SELECT p."activation_date", x."part", x."code", -x."cents"
    FROM "payments" p CROSS JOIN LATERAL "revenue_parts"(0, OLD."quote") x
   WHERE p."billing_period_id" = OLD."id" AND x."cents" <> 0;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  INSERT INTO "revenue_rollup" ("business_date", "part", "code", "cents")
  SELECT p."activation_date", x."part", x."code", x."cents"
    FROM "payments" p CROSS JOIN LATERAL "revenue_parts"(0, NEW."quote") x
   WHERE p."billing_period_id" = NEW."id" AND x."cents" <> 0;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "revenue_rollup_on_quote_update" AFTER UPDATE OF "quote" ON "billing_periods"
FOR EACH ROW WHEN (OLD."quote" IS DISTINCT FROM NEW."quote")
EXECUTE FUNCTION "revenue_rollup_period_changed"();--> statement-breakpoint
CREATE TRIGGER "revenue_rollup_on_period_delete" BEFORE DELETE ON "billing_periods"
FOR EACH ROW EXECUTE FUNCTION "revenue_rollup_period_changed"();--> statement-breakpoint
-- What one row of the MRR history adds to MRR's changes: its mrr_cents from the quarter hour of
-- valid_from, taken back from the quarter hour of valid_to (a row closed before it opened was never
-- open: both at valid_from).
CREATE FUNCTION "mrr_events"("valid_from" timestamptz, "valid_to" timestamptz, "mrr_cents" bigint)
RETURNS TABLE ("at" timestamptz, "cents" bigint) LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', "valid_from", timestamptz '2000-01-01 00:00:00+00'), "mrr_cents"
  UNION ALL
  SELECT date_bin('15 minutes', greatest("valid_from", "valid_to"),
      timestamptz '2000-01-01 00:00:00+00'), -"mrr_cents"
   WHERE "valid_to" IS NOT NULL
$$;--> statement-breakpoint
CREATE FUNCTION "mrr_rollup_history_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "mrr_rollup" ("at", "cents")
    SELECT e."at", sum(e."cents") FROM "new_history" h
      CROSS JOIN LATERAL "mrr_events"(h."valid_from", h."valid_to", h."mrr_cents") e
     GROUP BY 1 HAVING sum(e."cents") <> 0;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "mrr_rollup" ("at", "cents")
    SELECT "at", sum("cents") FROM (
      SELECT e."at", e."cents" FROM "new_history" h
        CROSS JOIN LATERAL "mrr_events"(h."valid_from", h."valid_to", h."mrr_cents") e
      UNION ALL
      SELECT e."at", -e."cents" FROM "old_history" h
        CROSS JOIN LATERAL "mrr_events"(h."valid_from", h."valid_to", h."mrr_cents") e
    ) "change"
    GROUP BY 1 HAVING sum("cents") <> 0;
  ELSE
    INSERT INTO "mrr_rollup" ("at", "cents")
    SELECT e."at", -sum(e."cents") FROM "old_history" h
      CROSS JOIN LATERAL "mrr_events"(h."valid_from", h."valid_to", h."mrr_cents") e
     GROUP BY 1 HAVING sum(e."cents") <> 0;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "mrr_rollup_on_history_insert" AFTER INSERT ON "account_mrr_history"
REFERENCING NEW TABLE AS "new_history"
FOR EACH STATEMENT EXECUTE FUNCTION "mrr_rollup_history_changed"();--> statement-breakpoint
CREATE TRIGGER "mrr_rollup_on_history_update" AFTER UPDATE ON "account_mrr_history"
REFERENCING OLD TABLE AS "old_history" NEW TABLE AS "new_history"
FOR EACH STATEMENT EXECUTE FUNCTION "mrr_rollup_history_changed"();--> statement-breakpoint
CREATE TRIGGER "mrr_rollup_on_history_delete" AFTER DELETE ON "account_mrr_history"
REFERENCING OLD TABLE AS "old_history"
FOR EACH STATEMENT EXECUTE FUNCTION "mrr_rollup_history_changed"();--> statement-breakpoint
-- What is there already: the same parts, summed.
INSERT INTO "revenue_rollup" ("business_date", "part", "code", "cents")
SELECT p."activation_date", x."part", x."code", sum(x."cents")
  FROM "payments" p
  LEFT JOIN "billing_periods" bp ON bp."id" = p."billing_period_id"
  CROSS JOIN LATERAL "revenue_parts"(p."amount_cents", bp."quote") x
 GROUP BY 1, 2, 3
HAVING sum(x."cents") <> 0;--> statement-breakpoint
INSERT INTO "mrr_rollup" ("at", "cents")
SELECT e."at", sum(e."cents") FROM "account_mrr_history" h
  CROSS JOIN LATERAL "mrr_events"(h."valid_from", h."valid_to", h."mrr_cents") e
 GROUP BY 1 HAVING sum(e."cents") <> 0;
