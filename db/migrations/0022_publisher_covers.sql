ALTER TABLE "products" ADD COLUMN "cover_path" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cover_sha256" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cover_source" text;