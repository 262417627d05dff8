CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"order_item_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency_code" text DEFAULT 'USD' NOT NULL,
	"status" text NOT NULL,
	"rule" text,
	"reason" text,
	"requested_by_id" integer,
	"decided_by_id" integer,
	"gateway" text,
	"gateway_refund_ref" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "refunds_status" CHECK ("refunds"."status" in ('requested', 'approved', 'refunded', 'refused')),
	CONSTRAINT "refunds_amount" CHECK ("refunds"."amount_cents" > 0),
	CONSTRAINT "refunds_currency" CHECK ("refunds"."currency_code" = 'USD'),
	CONSTRAINT "refunds_gateway" CHECK ("refunds"."gateway" is null or "refunds"."gateway" in ('test', 'stripe'))
);
--> statement-breakpoint
CREATE TABLE "test_gateway_refunds" (
	"ref" text PRIMARY KEY NOT NULL,
	"payment_ref" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_gateway_refunds_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "test_gateway_refunds_amount" CHECK ("test_gateway_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_order_item" ON "refunds" USING btree ("order_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_idempotency_key" ON "refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "refunds_order" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_open" ON "refunds" USING btree ("status","created_at") WHERE "refunds"."status" in ('requested', 'approved');--> statement-breakpoint
CREATE INDEX "test_gateway_refunds_payment" ON "test_gateway_refunds" USING btree ("payment_ref");