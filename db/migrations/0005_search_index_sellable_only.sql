DROP INDEX "products_search";--> statement-breakpoint
CREATE INDEX "products_search" ON "products" USING gin ("search_vector") WHERE status not in ('deleted', 'withdrawn') and not is_disabled;