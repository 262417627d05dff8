CREATE TABLE "book_file_metrics" (
	"book_file_id" integer PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"text_length" integer NOT NULL,
	"page_count" integer NOT NULL,
	"part_lengths" integer[] NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "book_file_metrics_non_negative" CHECK ("book_file_metrics"."text_length" >= 0 and "book_file_metrics"."page_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reading_allowances" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"copied_characters" integer DEFAULT 0 NOT NULL,
	"printed_pages" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_allowances_user_id_product_id_pk" PRIMARY KEY("user_id","product_id"),
	CONSTRAINT "reading_allowances_non_negative" CHECK ("reading_allowances"."copied_characters" >= 0 and "reading_allowances"."printed_pages" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reading_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reading_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"kind" text NOT NULL,
	"part" integer,
	"course_section_id" integer,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_events_kind" CHECK ("reading_events"."kind" in ('open', 'page')),
	CONSTRAINT "reading_events_part" CHECK ("reading_events"."part" is null or "reading_events"."part" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reading_positions" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"part" integer NOT NULL,
	"progression" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_positions_user_id_product_id_pk" PRIMARY KEY("user_id","product_id"),
	CONSTRAINT "reading_positions_part" CHECK ("reading_positions"."part" >= 0),
	CONSTRAINT "reading_positions_progression" CHECK ("reading_positions"."progression" between 0 and 1)
);
--> statement-breakpoint
ALTER TABLE "book_file_metrics" ADD CONSTRAINT "book_file_metrics_book_file_id_book_files_id_fk" FOREIGN KEY ("book_file_id") REFERENCES "public"."book_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_allowances" ADD CONSTRAINT "reading_allowances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_allowances" ADD CONSTRAINT "reading_allowances_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_events" ADD CONSTRAINT "reading_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_events" ADD CONSTRAINT "reading_events_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_events" ADD CONSTRAINT "reading_events_course_section_id_course_sections_id_fk" FOREIGN KEY ("course_section_id") REFERENCES "public"."course_sections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_events_product_kind_user" ON "reading_events" USING btree ("product_id","kind","user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "reading_events_user" ON "reading_events" USING btree ("user_id","occurred_at");