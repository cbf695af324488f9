CREATE TABLE "account_item_totals" (
	"user_id" uuid NOT NULL,
	"code" text NOT NULL,
	"first_month" integer NOT NULL,
	"cents" bigint[] NOT NULL,
	"lines" bigint[] NOT NULL,
	CONSTRAINT "account_item_totals_code_user_id_pk" PRIMARY KEY("code","user_id")
);
--> statement-breakpoint
-- Decision 061: what each account's payments bought of each item, as running totals over business
-- months, kept by triggers in the statement that writes the ledger (as decision 051's
-- revenue_rollup). The accounts behind a bar of revenue by item or group are then one row per
-- account and code, whatever the range of months, instead of every payment's quote of the range.
--
-- The business month of a business date: months since the year 0.
CREATE FUNCTION "business_month"("day" date) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT (extract(year FROM "day") * 12 + extract(month FROM "day") - 1)::integer
$$;--> statement-breakpoint
-- A running total at a month: 0 before the first, the last element after the last.
CREATE FUNCTION "running_at"("first_month" integer, "totals" bigint[], "at_month" integer)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN "at_month" < "first_month" THEN 0
    ELSE coalesce("totals"[least("at_month" - "first_month" + 1, cardinality("totals"))], 0) END
$$;--> statement-breakpoint
-- Two running totals added month by month (either may be missing: a null first month). The usual
-- change, one month at or after the row's last (a month's payment), appends to the row's array
-- without reading it month by month.
CREATE FUNCTION "running_merge"("first_a" integer, "a" bigint[], "first_b" integer, "b" bigint[])
RETURNS bigint[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  "n" integer := cardinality("a");
BEGIN
  IF "first_a" IS NULL THEN
    RETURN "b";
  ELSIF "first_b" IS NULL THEN
    RETURN "a";
  ELSIF cardinality("b") = 1 AND "first_b" >= "first_a" + "n" - 1 THEN
    -- The months before b's as they are, the last total carried to b's month, b added to it.
    RETURN "a"[1:"first_b" - "first_a"]
      || array_fill("a"["n"], ARRAY[greatest("first_b" - "first_a" - "n", 0)])
      || ("a"["n"] + "b"[1]);
  END IF;
  RETURN (SELECT array_agg(running_at("first_a", "a", "m") + running_at("first_b", "b", "m")
      ORDER BY "m")
    FROM generate_series(least("first_a", "first_b"),
      greatest("first_a" + "n", "first_b" + cardinality("b")) - 1) AS "m");
END;
$$;--> statement-breakpoint
-- What one quote's lines count for: each item line by its code (free lines too: the account has
-- the item), the platform fee as `PLATFORM_FEE` when it is not 0, with revenue_parts' guards (a
-- line whose cents are not a whole number counts for nothing).
CREATE FUNCTION "item_lines"("quote" jsonb) RETURNS TABLE ("code" text, "cents" bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p."part" = 'fee' THEN 'PLATFORM_FEE' ELSE p."code" END, p."cents"
    FROM "revenue_parts"(0, "quote") p
   WHERE p."part" = 'item' OR (p."part" = 'fee' AND p."cents" <> 0)
$$;--> statement-breakpoint
-- Adds changes (an account, a code, a business month, cents and lines; negative to take back) to
-- the accounts' running totals: the changes of one account and code become a running total over
-- their months, merged into the account's row under its lock (rows in one order: code, account).
CREATE FUNCTION "account_item_totals_add"("user_ids" uuid[], "codes" text[], "months" integer[],
  "cents" bigint[], "lines" bigint[])
RETURNS void LANGUAGE sql AS $$
  WITH "change" AS (
    SELECT u."user_id", u."code", u."month", sum(u."cents") AS "cents", sum(u."lines") AS "lines"
      FROM unnest("user_ids", "codes", "months", "cents", "lines")
        AS u("user_id", "code", "month", "cents", "lines")
     GROUP BY 1, 2, 3),
  "span" AS (
    SELECT c."user_id", c."code", min(c."month") AS "first", max(c."month") AS "last"
      FROM "change" c GROUP BY 1, 2),
  "running" AS (
    SELECT s."user_id", s."code", s."first", m."month",
      (sum(coalesce(c."cents", 0)) OVER w)::bigint AS "cents",
      (sum(coalesce(c."lines", 0)) OVER w)::bigint AS "lines"
      FROM "span" s
      CROSS JOIN generate_series(s."first", s."last") AS m("month")
      LEFT JOIN "change" c
        ON c."user_id" = s."user_id" AND c."code" = s."code" AND c."month" = m."month"
    WINDOW w AS (PARTITION BY s."user_id", s."code" ORDER BY m."month"))
  INSERT INTO "account_item_totals" AS t ("user_id", "code", "first_month", "cents", "lines")
  SELECT r."user_id", r."code", r."first", array_agg(r."cents" ORDER BY r."month"),
    array_agg(r."lines" ORDER BY r."month")
    FROM "running" r GROUP BY 1, 2, 3
   ORDER BY 2, 1
  ON CONFLICT ("code", "user_id") DO UPDATE SET
    "first_month" = least(t."first_month", excluded."first_month"),
    "cents" = "running_merge"(t."first_month", t."cents", excluded."first_month", excluded."cents"),
    "lines" = "running_merge"(t."first_month", t."lines", excluded."first_month", excluded."lines")
$$;--> statement-breakpoint
-- New payments, a statement at a time (a billing run's batch is one statement).
CREATE FUNCTION "account_item_totals_payments_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "account_item_totals_add"(array_agg(n."user_id"), array_agg(x."code"),
      array_agg("business_month"(n."activation_date")), array_agg(x."cents"), array_agg(1::bigint))
    FROM "new_payments" n
    JOIN "billing_periods" bp ON bp."id" = n."billing_period_id"
    CROSS JOIN LATERAL "item_lines"(bp."quote") x
  HAVING count(*) > 0;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "account_item_totals_on_payment_insert" AFTER INSERT ON "payments"
REFERENCING NEW TABLE AS "new_payments"
FOR EACH STATEMENT EXECUTE FUNCTION "account_item_totals_payments_inserted"();--> statement-breakpoint
-- A payment's account, date or period changed (nothing does today), or the payment deleted (with
-- its account): what its lines added is taken back, and its new lines added. As for
-- revenue_rollup, a deleted payment counts its lines while its period is still there, and a
-- period deleted first takes them with it (below), so each leaves once.
CREATE FUNCTION "account_item_totals_payment_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "account_item_totals_add"(array_agg(c."user_id"), array_agg(c."code"),
      array_agg(c."month"), array_agg(c."cents"), array_agg(c."lines"))
    FROM (
      SELECT OLD."user_id", x."code", "business_month"(OLD."activation_date") AS "month",
        -x."cents" AS "cents", -1::bigint AS "lines"
        FROM "item_lines"((SELECT "quote" FROM "billing_periods"
          WHERE "id" = OLD."billing_period_id")) x
      UNION ALL
      SELECT NEW."user_id", x."code", "business_month"(NEW."activation_date"), x."cents", 1::bigint
        FROM "item_lines"((SELECT "quote" FROM "billing_periods"
          WHERE "id" = NEW."billing_period_id")) x
       WHERE TG_OP = 'UPDATE'
    ) c
  HAVING count(*) > 0;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "account_item_totals_on_payment_update" AFTER UPDATE OF "user_id", "activation_date", "billing_period_id" ON "payments"
FOR EACH ROW WHEN (OLD."user_id" IS DISTINCT FROM NEW."user_id"
  OR OLD."activation_date" IS DISTINCT FROM NEW."activation_date"
  OR OLD."billing_period_id" IS DISTINCT FROM NEW."billing_period_id")
EXECUTE FUNCTION "account_item_totals_payment_changed"();--> statement-breakpoint
CREATE TRIGGER "account_item_totals_on_payment_delete" BEFORE DELETE ON "payments"
FOR EACH ROW EXECUTE FUNCTION "account_item_totals_payment_changed"();--> statement-breakpoint
-- A paid period's quote changed (nothing does today) or the period deleted while its payment is
-- still there: the lines follow the quote.
CREATE FUNCTION "account_item_totals_period_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "account_item_totals_add"(array_agg(c."user_id"), array_agg(c."code"),
      array_agg(c."month"), array_agg(c."cents"), array_agg(c."lines"))
    FROM (
      SELECT p."user_id", x."code", "business_month"(p."activation_date") AS "month",
        -x."cents" AS "cents", -1::bigint AS "lines"
        FROM "payments" p CROSS JOIN LATERAL "item_lines"(OLD."quote") x
       WHERE p."billing_period_id" = OLD."id"
      UNION ALL
      SELECT p."user_id", x."code", "business_month"(p."activation_date"), x."cents", 1::bigint
        FROM "payments" p CROSS JOIN LATERAL "item_lines"(NEW."quote") x
       WHERE TG_OP = 'UPDATE' AND p."billing_period_id" = NEW."id"
    ) c
  HAVING count(*) > 0;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "account_item_totals_on_quote_update" AFTER UPDATE OF "quote" ON "billing_periods"
FOR EACH ROW WHEN (OLD."quote" IS DISTINCT FROM NEW."quote")
EXECUTE FUNCTION "account_item_totals_period_changed"();--> statement-breakpoint
CREATE TRIGGER "account_item_totals_on_period_delete" BEFORE DELETE ON "billing_periods"
FOR EACH ROW EXECUTE FUNCTION "account_item_totals_period_changed"();--> statement-breakpoint
-- What is there already, in one statement (account_item_totals_add's steps over every payment).
INSERT INTO "account_item_totals" ("user_id", "code", "first_month", "cents", "lines")
WITH "change" AS (
  SELECT p."user_id", x."code", "business_month"(p."activation_date") AS "month",
    sum(x."cents") AS "cents", count(*) AS "lines"
    FROM "payments" p
    JOIN "billing_periods" bp ON bp."id" = p."billing_period_id"
    CROSS JOIN LATERAL "item_lines"(bp."quote") x
   GROUP BY 1, 2, 3),
"span" AS (
  SELECT c."user_id", c."code", min(c."month") AS "first", max(c."month") AS "last"
    FROM "change" c GROUP BY 1, 2),
"running" AS (
  SELECT s."user_id", s."code", s."first", m."month",
    (sum(coalesce(c."cents", 0)) OVER w)::bigint AS "cents",
    (sum(coalesce(c."lines", 0)) OVER w)::bigint AS "lines"
    FROM "span" s
    CROSS JOIN generate_series(s."first", s."last") AS m("month")
    LEFT JOIN "change" c
      ON c."user_id" = s."user_id" AND c."code" = s."code" AND c."month" = m."month"
  WINDOW w AS (PARTITION BY s."user_id", s."code" ORDER BY m."month"))
SELECT r."user_id", r."code", r."first", array_agg(r."cents" ORDER BY r."month"),
  array_agg(r."lines" ORDER BY r."month")
  FROM "running" r GROUP BY 1, 2, 3;
