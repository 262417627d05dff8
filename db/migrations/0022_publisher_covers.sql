ALTER TABLE "products" ADD COLUMN "cover_path" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cover_sha256" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "cover_source" text;--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;