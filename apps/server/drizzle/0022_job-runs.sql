-- One row per scheduled job that runs once per scheduled time across instances (docs/decisions/046).
CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"holder" text NOT NULL,
	"leased_until" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"last_error" text
);
