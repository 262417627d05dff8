ALTER TABLE "categories" ADD COLUMN "title_fr_ca" text;--> statement-breakpoint
ALTER TABLE "product_features" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "edition_number" smallint;--> statement-breakpoint
ALTER TABLE "product_features" ADD CONSTRAINT "product_features_code_shape" CHECK ("product_features"."code" is null or "product_features"."code" ~ '^[a-z0-9]+(-[a-z0-9]+)*$');--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_edition_number" CHECK ("products"."edition_number" is null or "products"."edition_number" > 0);--> statement-breakpoint
-- Issue 13: an edition label that is an English number ('3rd Edition') becomes the number, which
-- pages say in their own language ('3e édition'); other labels stay the publisher's text.
UPDATE "products" SET "edition_number" = substring("edition" from '^\s*([1-9][0-9]{0,2})')::smallint, "edition" = NULL
WHERE "edition" ~* '^\s*[1-9][0-9]{0,2}\s*(st|nd|rd|th)\s+edition\s*$';
