-- Courseware launch (issue 14): the tool registry (LTI 1.3 and 1.1), every launch with its
-- single-use handle and outcome, and the platform's rotatable RS256 signing keys.
CREATE TABLE "lti_launches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"section_id" integer,
	"tool_id" integer,
	"lti_version" text NOT NULL,
	"handle_digest" text,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "lti_launches_version" CHECK ("lti_launches"."lti_version" in ('1.1', '1.3')),
	CONSTRAINT "lti_launches_outcome" CHECK ("lti_launches"."outcome" in ('pending', 'launched', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "lti_platform_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_key_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lti_tools" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lti_tools_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"product_id" integer,
	"publisher" text,
	"lti_version" text NOT NULL,
	"launch_url" text NOT NULL,
	"client_id" text,
	"deployment_id" text,
	"login_url" text,
	"redirect_uris" text[] DEFAULT '{}'::text[] NOT NULL,
	"jwks_url" text,
	"public_key" text,
	"consumer_key" text,
	"secret_ciphertext" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_tools_version" CHECK ("lti_tools"."lti_version" in ('1.1', '1.3')),
	CONSTRAINT "lti_tools_target" CHECK (("lti_tools"."product_id" is null) <> ("lti_tools"."publisher" is null)),
	CONSTRAINT "lti_tools_13_fields" CHECK ("lti_tools"."lti_version" <> '1.3' or ("lti_tools"."client_id" is not null and "lti_tools"."deployment_id" is not null and "lti_tools"."login_url" is not null and cardinality("lti_tools"."redirect_uris") > 0)),
	CONSTRAINT "lti_tools_11_fields" CHECK ("lti_tools"."lti_version" <> '1.1' or ("lti_tools"."consumer_key" is not null and "lti_tools"."secret_ciphertext" is not null))
);
--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_tool_id_lti_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."lti_tools"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_tools" ADD CONSTRAINT "lti_tools_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lti_launches_handle" ON "lti_launches" USING btree ("handle_digest");--> statement-breakpoint
CREATE INDEX "lti_launches_section" ON "lti_launches" USING btree ("section_id","created_at");--> statement-breakpoint
CREATE INDEX "lti_launches_user" ON "lti_launches" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platform_keys_one_active" ON "lti_platform_keys" USING btree (("retired_at" is null)) WHERE "lti_platform_keys"."retired_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "lti_tools_product" ON "lti_tools" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_tools_publisher" ON "lti_tools" USING btree ("publisher");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_tools_client_id" ON "lti_tools" USING btree ("client_id");