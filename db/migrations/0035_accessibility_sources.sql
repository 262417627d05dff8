-- Issue 38: where an accessibility statement comes from, and the EPUB's layout. Rows written
-- before keep no source: they read as the feed's (or the store's own) until the product's EPUB
-- is imported again, which writes its statements as 'file'.
ALTER TABLE "product_features" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "fixed_layout" boolean;--> statement-breakpoint
ALTER TABLE "product_features" ADD CONSTRAINT "product_features_source" CHECK ("product_features"."source" is null or "product_features"."source" in ('feed', 'file'));
