CREATE TABLE "campus_identities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campus_identities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"campus_sign_in_id" integer NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"campus_id" text,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campus_sign_in_requests" (
	"handle_hash" text PRIMARY KEY NOT NULL,
	"campus_sign_in_id" integer NOT NULL,
	"code_verifier" text,
	"nonce" text,
	"next_path" text DEFAULT '/shelf' NOT NULL,
	"user_id" integer,
	"link_user_id" integer,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campus_sign_ins" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campus_sign_ins_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"protocol" text NOT NULL,
	"email_domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"oidc_issuer" text,
	"oidc_client_id" text,
	"oidc_client_secret_ciphertext" text,
	"saml_idp_entity_id" text,
	"saml_sso_url" text,
	"saml_signing_cert" text,
	"saml_sp_entity_id" text,
	"email_attribute" text DEFAULT 'email' NOT NULL,
	"first_name_attribute" text DEFAULT 'given_name' NOT NULL,
	"last_name_attribute" text DEFAULT 'family_name' NOT NULL,
	"campus_id_attribute" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campus_sign_ins_protocol" CHECK ("campus_sign_ins"."protocol" in ('oidc', 'saml')),
	CONSTRAINT "campus_sign_ins_oidc" CHECK ("campus_sign_ins"."protocol" <> 'oidc' or ("campus_sign_ins"."oidc_issuer" is not null and "campus_sign_ins"."oidc_client_id" is not null)),
	CONSTRAINT "campus_sign_ins_saml" CHECK ("campus_sign_ins"."protocol" <> 'saml' or ("campus_sign_ins"."saml_sso_url" is not null and "campus_sign_ins"."saml_signing_cert" is not null and "campus_sign_ins"."saml_sp_entity_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "campus_used_assertions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campus_identities" ADD CONSTRAINT "campus_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_identities" ADD CONSTRAINT "campus_identities_campus_sign_in_id_campus_sign_ins_id_fk" FOREIGN KEY ("campus_sign_in_id") REFERENCES "public"."campus_sign_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_in_requests" ADD CONSTRAINT "campus_sign_in_requests_campus_sign_in_id_campus_sign_ins_id_fk" FOREIGN KEY ("campus_sign_in_id") REFERENCES "public"."campus_sign_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_in_requests" ADD CONSTRAINT "campus_sign_in_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_in_requests" ADD CONSTRAINT "campus_sign_in_requests_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_ins" ADD CONSTRAINT "campus_sign_ins_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campus_identities_subject" ON "campus_identities" USING btree ("issuer","subject");--> statement-breakpoint
CREATE INDEX "campus_identities_user" ON "campus_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "campus_sign_in_requests_expires" ON "campus_sign_in_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campus_sign_ins_org" ON "campus_sign_ins" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "campus_used_assertions_expires" ON "campus_used_assertions" USING btree ("expires_at");