ALTER TABLE "orders" ADD COLUMN "completion_seen_at" timestamp with time zone;--> statement-breakpoint
-- Orders paid before this column: their buyers were shown them, or long ago (issue 37).
UPDATE "orders" SET "completion_seen_at" = "paid_at" WHERE "paid_at" IS NOT NULL;
