CREATE TABLE "classroom_notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "classroom_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"section_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"author_user_id" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "classroom_notes_body" CHECK ("classroom_notes"."body" = btrim("classroom_notes"."body") and char_length("classroom_notes"."body") between 1 and 500)
);
--> statement-breakpoint
ALTER TABLE "ownerships" ADD COLUMN "section_code_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "classroom_notes" ADD CONSTRAINT "classroom_notes_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_notes" ADD CONSTRAINT "classroom_notes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_notes" ADD CONSTRAINT "classroom_notes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "classroom_notes_section_product" ON "classroom_notes" USING btree ("section_id","product_id","created_at");--> statement-breakpoint
-- Issue 14: a code confirmed before this migration counts as joined when the classroom was.
UPDATE "ownerships" SET "section_code_confirmed_at" = "starts_at" WHERE "is_section_code_confirmed" AND "section_code_confirmed_at" IS NULL;
