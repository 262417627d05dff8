CREATE TABLE "departments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "departments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_fr_ca" text
);
--> statement-breakpoint
ALTER TABLE "section_products" ADD COLUMN "is_required" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "departments_org_code" ON "departments" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "departments_name" ON "departments" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "departments_name_fr_ca" ON "departments" USING btree (lower("name_fr_ca"));--> statement-breakpoint
CREATE INDEX "products_edition" ON "products" USING btree ("edition_number","sales_count" DESC NULLS FIRST,"id") WHERE edition_number is not null and status not in ('deleted', 'withdrawn') and not is_disabled;--> statement-breakpoint
CREATE INDEX "courses_department_number" ON "courses" USING btree ("department","number","org_id");