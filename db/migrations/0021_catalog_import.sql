CREATE TABLE "catalog_import_refusals" (
	"import_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text DEFAULT 'record' NOT NULL,
	"reference" text,
	"line" integer,
	"reason" text NOT NULL,
	"reason_values" jsonb,
	CONSTRAINT "catalog_import_refusals_import_id_position_pk" PRIMARY KEY("import_id","position"),
	CONSTRAINT "catalog_import_refusals_kind" CHECK ("catalog_import_refusals"."kind" in ('record', 'file'))
);
--> statement-breakpoint
CREATE TABLE "catalog_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "catalog_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"started_by" integer,
	"status" text DEFAULT 'running' NOT NULL,
	"onix_release" text,
	"sender_name" text,
	"total_bytes" bigint,
	"read_bytes" bigint DEFAULT 0 NOT NULL,
	"records" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"withdrawn" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"files_attached" integer DEFAULT 0 NOT NULL,
	"files_refused" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"failure_values" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "catalog_imports_source" CHECK ("catalog_imports"."source" in ('cli', 'admin', 'seed')),
	CONSTRAINT "catalog_imports_status" CHECK ("catalog_imports"."status" in ('running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "record_reference" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "source_digest" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "contributors" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "series" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "publication_date" date;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sale_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sale_hold" text;--> statement-breakpoint
ALTER TABLE "catalog_import_refusals" ADD CONSTRAINT "catalog_import_refusals_import_id_catalog_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."catalog_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD CONSTRAINT "catalog_imports_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_imports_started" ON "catalog_imports" USING btree ("started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "products_record_reference" ON "products" USING btree ("record_reference") WHERE record_reference is not null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_sale_hold" CHECK ("products"."sale_hold" is null or "products"."sale_hold" in ('unpriced', 'no-us-price', 'not-available'));