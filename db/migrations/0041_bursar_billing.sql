CREATE TABLE "billing_charges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "billing_charges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"section_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"campus_id" text NOT NULL,
	"reverses_charge_id" integer,
	"credit_reason" text,
	"refunded_at" timestamp with time zone,
	"refund_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_charges_kind" CHECK ("billing_charges"."kind" in ('charge', 'credit')),
	CONSTRAINT "billing_charges_sign" CHECK (("billing_charges"."kind" = 'charge' and "billing_charges"."amount_cents" > 0 and "billing_charges"."reverses_charge_id" is null and "billing_charges"."credit_reason" is null)
        or ("billing_charges"."kind" = 'credit' and "billing_charges"."amount_cents" < 0 and "billing_charges"."reverses_charge_id" is not null and "billing_charges"."credit_reason" in ('drop', 'refund'))),
	CONSTRAINT "billing_charges_currency" CHECK ("billing_charges"."currency" = 'USD'),
	CONSTRAINT "billing_charges_refund_reason" CHECK ("billing_charges"."refund_reason" is null or length("billing_charges"."refund_reason") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "billing_mappings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"columns" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "billing_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"term_id" integer NOT NULL,
	"sequence" integer NOT NULL,
	"created_by_user_id" integer,
	"created_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"charge_count" integer NOT NULL,
	"credit_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"file_name" text NOT NULL,
	"file_text" text NOT NULL,
	"file_sha256" text NOT NULL,
	CONSTRAINT "billing_runs_sequence" CHECK ("billing_runs"."sequence" >= 1),
	CONSTRAINT "billing_runs_currency" CHECK ("billing_runs"."currency" = 'USD')
);
--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_term_id_academic_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."academic_terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_run_id_billing_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."billing_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_reverses_charge_id_billing_charges_id_fk" FOREIGN KEY ("reverses_charge_id") REFERENCES "public"."billing_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_mappings" ADD CONSTRAINT "billing_mappings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD CONSTRAINT "billing_runs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD CONSTRAINT "billing_runs_term_id_academic_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."academic_terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD CONSTRAINT "billing_runs_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_charges_once" ON "billing_charges" USING btree ("section_id","user_id") WHERE "billing_charges"."kind" = 'charge';--> statement-breakpoint
CREATE UNIQUE INDEX "billing_charges_credit_once" ON "billing_charges" USING btree ("reverses_charge_id");--> statement-breakpoint
CREATE INDEX "billing_charges_term" ON "billing_charges" USING btree ("term_id","user_id");--> statement-breakpoint
CREATE INDEX "billing_charges_run" ON "billing_charges" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_runs_org_sequence" ON "billing_runs" USING btree ("org_id","sequence");--> statement-breakpoint
CREATE INDEX "billing_runs_term" ON "billing_runs" USING btree ("term_id","sequence");