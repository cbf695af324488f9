-- A payment row with its receipt is about 2.2 kB, just over the 2 kB at which PostgreSQL starts
-- to compress a row's large values and move them out of line. The receipt PDF is already
-- deflated, so the compression attempt only costs time, and a TOAST row and its index entry
-- would be written for every payment. Rows up to 4 kB stay whole in the table; larger receipts
-- are moved out of line without trying to compress them again.
ALTER TABLE "payments" SET (toast_tuple_target = 4096);--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "receipt_pdf" SET STORAGE EXTERNAL;
