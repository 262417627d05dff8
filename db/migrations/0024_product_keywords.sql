-- Issue 15: the publisher's keywords (ONIX subject scheme 20) are kept per product and
-- searched, weighted C like the description (below title A, subtitle and authors B). jsonb,
-- not text[]: to_tsvector(regconfig, jsonb) is immutable where array_to_string is not, and it
-- leaves a gap between keywords so a phrase never spans two of them. PostgreSQL 15 cannot
-- change a generated column's expression, so search_vector is dropped and added again (the
-- table is rewritten once) and products_search, dropped with it, is built again.
ALTER TABLE "products" ADD COLUMN "keywords" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_keywords" CHECK (jsonb_typeof("products"."keywords") = 'array' and jsonb_array_length("products"."keywords") <= 30);--> statement-breakpoint
ALTER TABLE "products" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce("products"."title", '')), 'A') ||
        setweight(to_tsvector('english', coalesce("products"."subtitle", '')), 'B') ||
        setweight(to_tsvector('simple', coalesce("products"."authors", '') || ' ' || coalesce("products"."isbn_text", '')), 'B') ||
        setweight(to_tsvector('english', coalesce("products"."description", '')), 'C') ||
        setweight(to_tsvector('english', "products"."keywords"), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "products_search" ON "products" USING gin ("search_vector") WHERE status not in ('deleted', 'withdrawn') and not is_disabled;
