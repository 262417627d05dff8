CREATE TABLE "roster_import_lines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "roster_import_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"import_id" integer NOT NULL,
	"file" text NOT NULL,
	"line" integer NOT NULL,
	"sourced_id" text,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"reason_values" jsonb
);
--> statement-breakpoint
CREATE TABLE "roster_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "roster_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"dry_run" boolean NOT NULL,
	"source" text NOT NULL,
	"file_name" text NOT NULL,
	"storage_path" text NOT NULL,
	"bytes" bigint NOT NULL,
	"started_by" integer,
	"actor" jsonb NOT NULL,
	"system_name" text,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"failure" text,
	"failure_values" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "roster_imports_status" CHECK ("roster_imports"."status" in ('queued', 'running', 'previewed', 'done', 'refused', 'failed')),
	CONSTRAINT "roster_imports_file_name" CHECK (length("roster_imports"."file_name") <= 300)
);
--> statement-breakpoint
CREATE TABLE "roster_records" (
	"org_id" integer NOT NULL,
	"kind" text NOT NULL,
	"sourced_id" text NOT NULL,
	"local_id" integer NOT NULL,
	"digest" text NOT NULL,
	"created_local" boolean DEFAULT false NOT NULL,
	"ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "roster_import_lines" ADD CONSTRAINT "roster_import_lines_import_id_roster_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."roster_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD CONSTRAINT "roster_imports_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD CONSTRAINT "roster_imports_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_records" ADD CONSTRAINT "roster_records_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "roster_import_lines_import" ON "roster_import_lines" USING btree ("import_id","file","line");--> statement-breakpoint
CREATE INDEX "roster_imports_org" ON "roster_imports" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "roster_imports_queued" ON "roster_imports" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "roster_records_key" ON "roster_records" USING btree ("org_id","kind","sourced_id");--> statement-breakpoint
CREATE INDEX "roster_records_local" ON "roster_records" USING btree ("kind","local_id");