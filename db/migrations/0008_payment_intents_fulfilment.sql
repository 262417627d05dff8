CREATE TABLE "print_orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "print_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"order_item_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"earliest_delivery_at" timestamp with time zone NOT NULL,
	"latest_delivery_at" timestamp with time zone NOT NULL,
	"carrier" text,
	"tracking_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "print_orders_orderItemId_unique" UNIQUE("order_item_id"),
	CONSTRAINT "print_orders_status" CHECK ("print_orders"."status" in ('queued', 'printing', 'shipped', 'delivered'))
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shipments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"order_item_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"carrier" text,
	"tracking_number" text,
	"rental_due_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"shipped_at" timestamp with time zone,
	CONSTRAINT "shipments_orderItemId_unique" UNIQUE("order_item_id"),
	CONSTRAINT "shipments_status" CHECK ("shipments"."status" in ('pending', 'shipped', 'delivered', 'returned'))
);
--> statement-breakpoint
CREATE TABLE "test_gateway_payments" (
	"ref" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"failure" text,
	"confirm_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_gateway_payments_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "test_gateway_payments_amount" CHECK ("test_gateway_payments"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "took_stock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failure" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "is_wallet" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "print_orders" ADD CONSTRAINT "print_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_orders" ADD CONSTRAINT "print_orders_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "print_orders_order" ON "print_orders" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "shipments_order" ON "shipments" USING btree ("order_id");--> statement-breakpoint
UPDATE "payments" SET "status" = CASE "status" WHEN 'failed' THEN 'requires_payment_method' WHEN 'requires_confirmation' THEN 'requires_action' ELSE "status" END;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status" CHECK ("payments"."status" in ('requires_payment_method', 'requires_action', 'processing', 'succeeded', 'canceled', 'refunded'));