CREATE TABLE "receipt_parts" (
	"digest" "bytea" PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
-- Decision 066: the parts are font programs (deflated) and a compression dictionary, neither of
-- which PostgreSQL's own compression would shrink or need to.
ALTER TABLE "receipt_parts" ALTER COLUMN "data" SET STORAGE EXTERNAL;
