CREATE TABLE "academic_terms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "academic_terms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"sourced_id" text,
	"title" text NOT NULL,
	"term_type" text DEFAULT 'term' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"parent_id" integer,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "academic_terms_dates" CHECK ("academic_terms"."end_date" >= "academic_terms"."start_date"),
	CONSTRAINT "academic_terms_type" CHECK ("academic_terms"."term_type" in ('term', 'semester', 'schoolYear', 'gradingPeriod'))
);
--> statement-breakpoint
CREATE TABLE "section_member_drops" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "section_member_drops_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"section_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"opt_status" text NOT NULL,
	"is_course_fee" boolean NOT NULL,
	"rs_coursemember_id" text NOT NULL,
	"dropped_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "section_member_drops_source" CHECK ("section_member_drops"."source" in ('roster', 'staff'))
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"acting_as_user_id" integer,
	"actor_label" text NOT NULL,
	"org_id" integer,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	CONSTRAINT "audit_events_reason" CHECK ("audit_events"."reason" is null or length("audit_events"."reason") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "campus_people" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campus_people_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sourced_id" text,
	"campus_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_roles" DROP CONSTRAINT "user_roles_role";--> statement-breakpoint
ALTER TABLE "course_sections" ADD COLUMN "term_id" integer;--> statement-breakpoint
ALTER TABLE "course_sections" ADD COLUMN "sourced_id" text;--> statement-breakpoint
ALTER TABLE "course_sections" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "course_sections" ADD COLUMN "drop_period_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "sourced_id" text;--> statement-breakpoint
ALTER TABLE "academic_terms" ADD CONSTRAINT "academic_terms_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "academic_terms" ADD CONSTRAINT "academic_terms_parent_id_academic_terms_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."academic_terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_member_drops" ADD CONSTRAINT "section_member_drops_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_member_drops" ADD CONSTRAINT "section_member_drops_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_acting_as_user_id_users_id_fk" FOREIGN KEY ("acting_as_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_people" ADD CONSTRAINT "campus_people_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_people" ADD CONSTRAINT "campus_people_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "academic_terms_org_sourced_id" ON "academic_terms" USING btree ("org_id","sourced_id");--> statement-breakpoint
CREATE INDEX "academic_terms_org_dates" ON "academic_terms" USING btree ("org_id","start_date");--> statement-breakpoint
CREATE INDEX "section_member_drops_section" ON "section_member_drops" USING btree ("section_id","dropped_at");--> statement-breakpoint
CREATE INDEX "section_member_drops_user" ON "section_member_drops" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "audit_events_object" ON "audit_events" USING btree ("object_type","object_id","occurred_at");--> statement-breakpoint
CREATE INDEX "audit_events_actor" ON "audit_events" USING btree ("actor_user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "audit_events_org" ON "audit_events" USING btree ("org_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campus_people_org_user" ON "campus_people" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "campus_people_org_sourced_id" ON "campus_people" USING btree ("org_id","sourced_id");--> statement-breakpoint
CREATE INDEX "campus_people_org_campus_id" ON "campus_people" USING btree ("org_id","campus_id");--> statement-breakpoint
CREATE INDEX "campus_people_user" ON "campus_people" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "course_sections" ADD CONSTRAINT "course_sections_term_id_academic_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."academic_terms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_sections_term" ON "course_sections" USING btree ("term_id");--> statement-breakpoint
CREATE UNIQUE INDEX "course_sections_sourced_id" ON "course_sections" USING btree ("course_id","sourced_id");--> statement-breakpoint
CREATE UNIQUE INDEX "courses_org_sourced_id" ON "courses" USING btree ("org_id","sourced_id");--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role" CHECK ("user_roles"."role" in ('manager', 'bookstore_manager', 'publisher', 'admin', 'support'));