ALTER TABLE "payments" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "test_gateway_payments" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "test_gateway_payments" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_card_last4" CHECK ("payments"."card_last4" is null or "payments"."card_last4" ~ '^[0-9]{4}$');