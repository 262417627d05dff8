CREATE TABLE "account_mail_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_mail_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"ip_address" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_mail_requests_kind" CHECK ("account_mail_requests"."kind" in ('reset-password', 'verify-email'))
);
--> statement-breakpoint
CREATE TABLE "account_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "account_tokens_purpose" CHECK ("account_tokens"."purpose" in ('verify-email', 'reset-password', 'change-email'))
);
--> statement-breakpoint
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
CREATE TABLE "deleted_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "privacy_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_requests_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "privacy_requests_kind" CHECK ("privacy_requests"."kind" in ('export', 'delete'))
);
--> statement-breakpoint
CREATE TABLE "passkeys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "passkeys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"sign_count" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "passkeys_name_length" CHECK (length("passkeys"."name") between 1 and 64),
	CONSTRAINT "passkeys_sign_count" CHECK ("passkeys"."sign_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"code_digest" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "second_factor_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "second_factor_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"ip_address" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_steps" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer,
	"challenge" text,
	"next" text,
	"anonymous_key" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_steps_kind" CHECK ("sign_in_steps"."kind" in ('passkey-register', 'passkey-sign-in', 'second-factor', 'enrol'))
);
--> statement-breakpoint
CREATE TABLE "totp_authenticators" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "section_invitations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "section_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"section_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text DEFAULT 'student' NOT NULL,
	"add_drop_date" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"claimed_by_user_id" integer,
	CONSTRAINT "section_invitations_role" CHECK ("section_invitations"."role" in ('professor', 'teaching_assistant', 'student'))
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "postal_address" text;--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_identities" ADD CONSTRAINT "campus_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_identities" ADD CONSTRAINT "campus_identities_campus_sign_in_id_campus_sign_ins_id_fk" FOREIGN KEY ("campus_sign_in_id") REFERENCES "public"."campus_sign_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_in_requests" ADD CONSTRAINT "campus_sign_in_requests_campus_sign_in_id_campus_sign_ins_id_fk" FOREIGN KEY ("campus_sign_in_id") REFERENCES "public"."campus_sign_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_in_requests" ADD CONSTRAINT "campus_sign_in_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_in_requests" ADD CONSTRAINT "campus_sign_in_requests_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campus_sign_ins" ADD CONSTRAINT "campus_sign_ins_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deleted_accounts" ADD CONSTRAINT "deleted_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_factor_attempts" ADD CONSTRAINT "second_factor_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_steps" ADD CONSTRAINT "sign_in_steps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "totp_authenticators" ADD CONSTRAINT "totp_authenticators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_invitations" ADD CONSTRAINT "section_invitations_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_invitations" ADD CONSTRAINT "section_invitations_claimed_by_user_id_users_id_fk" FOREIGN KEY ("claimed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_mail_requests_email" ON "account_mail_requests" USING btree (lower("email"),"requested_at");--> statement-breakpoint
CREATE INDEX "account_mail_requests_ip" ON "account_mail_requests" USING btree ("ip_address","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_tokens_hash" ON "account_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_tokens_user" ON "account_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "campus_identities_subject" ON "campus_identities" USING btree ("issuer","subject");--> statement-breakpoint
CREATE INDEX "campus_identities_user" ON "campus_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "campus_sign_in_requests_expires" ON "campus_sign_in_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campus_sign_ins_org" ON "campus_sign_ins" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "campus_used_assertions_expires" ON "campus_used_assertions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "privacy_requests_user" ON "privacy_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential" ON "passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "passkeys_user" ON "passkeys" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_code" ON "recovery_codes" USING btree ("user_id","code_digest");--> statement-breakpoint
CREATE INDEX "second_factor_attempts_user" ON "second_factor_attempts" USING btree ("user_id","attempted_at");--> statement-breakpoint
CREATE INDEX "second_factor_attempts_ip" ON "second_factor_attempts" USING btree ("ip_address","attempted_at");--> statement-breakpoint
CREATE INDEX "sign_in_steps_expires" ON "sign_in_steps" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "section_invitations_section_email" ON "section_invitations" USING btree ("section_id",lower("email"));--> statement-breakpoint
CREATE INDEX "section_invitations_email" ON "section_invitations" USING btree (lower("email"));--> statement-breakpoint
-- Issue 20: managers and bookstore managers must sign in with a second factor. Their sessions
-- from before it existed end here, so the next sign-in asks for it (or enrols them).
DELETE FROM "sessions" WHERE "user_id" IN (SELECT "user_id" FROM "user_roles" WHERE "role" IN ('manager', 'bookstore_manager'));
