ALTER TABLE "outbox" ADD COLUMN "priority" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_paid_at" ON "orders" USING btree ("paid_at") WHERE "orders"."paid_at" is not null;