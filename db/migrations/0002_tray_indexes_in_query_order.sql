DROP INDEX "products_sales";--> statement-breakpoint
DROP INDEX "products_adoptions";--> statement-breakpoint
CREATE INDEX "products_sales" ON "products" USING btree ("sales_count" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "products_adoptions" ON "products" USING btree ("adoption_count" DESC NULLS FIRST,"id");