CREATE TABLE "reading_annotations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reading_annotations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"kind" text NOT NULL,
	"colour" text,
	"note" text,
	"part" integer NOT NULL,
	"start_offset" integer NOT NULL,
	"end_offset" integer NOT NULL,
	"exact" text NOT NULL,
	"prefix" text DEFAULT '' NOT NULL,
	"suffix" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_annotations_kind" CHECK ("reading_annotations"."kind" in ('highlight', 'bookmark')),
	CONSTRAINT "reading_annotations_offsets" CHECK ("reading_annotations"."start_offset" >= 0 and "reading_annotations"."end_offset" > "reading_annotations"."start_offset")
);
--> statement-breakpoint
ALTER TABLE "reading_annotations" ADD CONSTRAINT "reading_annotations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_annotations" ADD CONSTRAINT "reading_annotations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_annotations_user_product" ON "reading_annotations" USING btree ("user_id","product_id");