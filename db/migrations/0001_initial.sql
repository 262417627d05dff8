CREATE TABLE "access_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"code" text NOT NULL,
	"access_code_url" text,
	"assigned_user_id" integer,
	"order_id" uuid,
	"assigned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "redeem_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"code_digest" text NOT NULL,
	"code_last4" text NOT NULL,
	"duration_days" integer,
	"redeemed_by_user_id" integer,
	"redeemed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redeem_codes_redeemed_together" CHECK (("redeem_codes"."redeemed_by_user_id" is null) = ("redeem_codes"."redeemed_at" is null))
);
--> statement-breakpoint
CREATE TABLE "account_flags" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"my_shelf_enabled" boolean DEFAULT true NOT NULL,
	"has_access_to_campus_tools" boolean DEFAULT false NOT NULL,
	"is_course_manager_enabled" boolean DEFAULT false NOT NULL,
	"has_access_to_bsm_product_requests" boolean DEFAULT false NOT NULL,
	"has_access_to_pub_product_requests" boolean DEFAULT false NOT NULL,
	"is_posting_enabled" boolean DEFAULT false NOT NULL,
	"has_access_to_my_users" boolean DEFAULT false NOT NULL,
	"is_samples_enabled" boolean DEFAULT false NOT NULL,
	"is_analytics_enabled" boolean DEFAULT false NOT NULL,
	"has_access_to_claim_code_checker" boolean DEFAULT false NOT NULL,
	"can_impersonate" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"ip_address" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer,
	"impersonator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "user_roles_user_id_role_pk" PRIMARY KEY("user_id","role"),
	CONSTRAINT "user_roles_role" CHECK ("user_roles"."role" in ('manager', 'bookstore_manager', 'publisher', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"org_id" integer,
	"language_code" text,
	"time_zone" text DEFAULT 'America/New_York' NOT NULL,
	"must_accept_eula" boolean DEFAULT true NOT NULL,
	"eula_accepted_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_shape" CHECK ("users"."email" ~ '^[^@\s]+@[^@\s]+$' and length("users"."email") <= 254),
	CONSTRAINT "users_language" CHECK ("users"."language_code" is null or "users"."language_code" in ('en', 'fr-CA'))
);
--> statement-breakpoint
CREATE TABLE "book_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "book_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"title" text NOT NULL,
	"extension" text NOT NULL,
	"type" text NOT NULL,
	"media_type" text NOT NULL,
	"storage_path" text NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "book_files_type" CHECK ("book_files"."type" in ('DOC', 'READER')),
	CONSTRAINT "book_files_extension" CHECK ("book_files"."extension" in ('epub', 'pdf'))
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"title" text NOT NULL,
	"url_slug" text NOT NULL,
	"parent_id" integer,
	"depth" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "categories_code_shape" CHECK ("categories"."code" ~ '^[A-Z]{3}[0-9]{6}$')
);
--> statement-breakpoint
CREATE TABLE "collection_items" (
	"collection_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "collection_items_collection_id_item_id_pk" PRIMARY KEY("collection_id","item_id"),
	CONSTRAINT "collection_items_not_self" CHECK ("collection_items"."collection_id" <> "collection_items"."item_id")
);
--> statement-breakpoint
CREATE TABLE "offerings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offerings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"type" text NOT NULL,
	"book_type" text NOT NULL,
	"price_cents" integer NOT NULL,
	"combo_price_cents" integer,
	"currency_code" text DEFAULT 'USD' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"duration_days" integer,
	"is_rental" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"stock" integer,
	CONSTRAINT "offerings_type" CHECK ("offerings"."type" in ('digital', 'physical', 'physical_product', 'combo', 'print')),
	CONSTRAINT "offerings_book_type" CHECK ("offerings"."book_type" in ('digital', 'print', 'combo')),
	CONSTRAINT "offerings_price" CHECK ("offerings"."price_cents" >= 0 and coalesce("offerings"."combo_price_cents", 0) >= 0),
	CONSTRAINT "offerings_currency" CHECK ("offerings"."currency_code" = 'USD'),
	CONSTRAINT "offerings_duration" CHECK ("offerings"."duration_days" is null or "offerings"."duration_days" > 0),
	CONSTRAINT "offerings_stock" CHECK ("offerings"."stock" is null or "offerings"."stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"product_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "product_categories_product_id_category_id_pk" PRIMARY KEY("product_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "product_features" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_features_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"category" text NOT NULL,
	"subcategory" text,
	"name" text NOT NULL,
	"detail" text,
	"url" text,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "product_features_category" CHECK ("product_features"."category" in ('ebook', 'accessibility', 'classroom', 'supplemental', 'collection', 'courseware'))
);
--> statement-breakpoint
CREATE TABLE "product_identifiers" (
	"product_id" integer NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "product_identifiers_product_id_type_pk" PRIMARY KEY("product_id","type"),
	CONSTRAINT "product_identifiers_type" CHECK ("product_identifiers"."type" in ('EISBN13', 'ISBN13', 'EISBN10', 'ISBN10', 'PCARD_13', 'PCARD_10', 'CLASSROOM_ISBN', 'COLLECTION_ISBN')),
	CONSTRAINT "product_identifiers_value_shape" CHECK ("product_identifiers"."value" ~ '^[0-9]{9,16}X?$')
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_type" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"authors" text DEFAULT '' NOT NULL,
	"imprint" text,
	"publisher" text DEFAULT '' NOT NULL,
	"edition" text,
	"language_code" text DEFAULT 'en' NOT NULL,
	"num_pages" integer,
	"publish_year" smallint,
	"course_title" text,
	"school_title" text,
	"website_url" text,
	"supplier_item_id" text,
	"isbn_text" text DEFAULT '' NOT NULL,
	"product_file_type" text,
	"is_codeless" boolean DEFAULT false NOT NULL,
	"is_url_access_code" boolean DEFAULT false NOT NULL,
	"show_redeem" boolean DEFAULT false NOT NULL,
	"redemption_url" text,
	"access_url" text,
	"has_text_to_speech" boolean DEFAULT false NOT NULL,
	"has_feature_printing" boolean DEFAULT false NOT NULL,
	"feature_printing_title" text,
	"status" text DEFAULT 'active' NOT NULL,
	"is_disabled" boolean DEFAULT false NOT NULL,
	"blocked_countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"blocked_hosts" text[] DEFAULT '{}'::text[] NOT NULL,
	"drm_offline_percent" numeric(5, 2),
	"drm_copy_percent" numeric(5, 2),
	"drm_print_percent" numeric(5, 2),
	"sales_count" integer DEFAULT 0 NOT NULL,
	"adoption_count" integer DEFAULT 0 NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce("products"."title", '')), 'A') ||
        setweight(to_tsvector('english', coalesce("products"."subtitle", '')), 'B') ||
        setweight(to_tsvector('simple', coalesce("products"."authors", '') || ' ' || coalesce("products"."isbn_text", '')), 'B') ||
        setweight(to_tsvector('english', coalesce("products"."description", '')), 'C')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_type" CHECK ("products"."product_type" in ('book', 'ebundle', 'courseware', 'collection', 'classroom', 'physical_product')),
	CONSTRAINT "products_status" CHECK ("products"."status" in ('active', 'deactivated', 'withdrawn', 'deleted')),
	CONSTRAINT "products_file_type" CHECK ("products"."product_file_type" is null or "products"."product_file_type" in ('EPUB', 'PDF')),
	CONSTRAINT "products_drm_range" CHECK (coalesce("products"."drm_offline_percent", 0) between 0 and 100 and coalesce("products"."drm_copy_percent", 0) between 0 and 100 and coalesce("products"."drm_print_percent", 0) between 0 and 100),
	CONSTRAINT "products_slug_shape" CHECK ("products"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "products_counters" CHECK ("products"."sales_count" >= 0 and "products"."adoption_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "cart_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cart_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"cart_id" uuid NOT NULL,
	"product_id" integer NOT NULL,
	"offering_id" integer NOT NULL,
	"course_section_id" integer,
	"is_digital" boolean NOT NULL,
	"is_print" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_items_kind" CHECK ("cart_items"."is_digital" or "cart_items"."is_print")
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer,
	"anonymous_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carts_owner" CHECK ("carts"."user_id" is not null or "carts"."anonymous_token_hash" is not null)
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"product_id" integer NOT NULL,
	"offering_id" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"is_digital" boolean NOT NULL,
	"is_print" boolean NOT NULL,
	CONSTRAINT "order_items_price" CHECK ("order_items"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_transitions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_transitions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"idempotency_key" text NOT NULL,
	"course_section_id" integer,
	"subtotal_cents" integer NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"currency_code" text DEFAULT 'USD' NOT NULL,
	"shipping_address" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "orders_status" CHECK ("orders"."status" in ('pending', 'paid', 'fulfilled', 'canceled', 'refunded')),
	CONSTRAINT "orders_totals" CHECK ("orders"."subtotal_cents" >= 0 and "orders"."fee_cents" >= 0 and "orders"."total_cents" = "orders"."subtotal_cents" + "orders"."fee_cents"),
	CONSTRAINT "orders_currency" CHECK ("orders"."currency_code" = 'USD')
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"gateway" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"gateway" text NOT NULL,
	"gateway_ref" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency_code" text DEFAULT 'USD' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_gateway" CHECK ("payments"."gateway" in ('test', 'stripe')),
	CONSTRAINT "payments_status" CHECK ("payments"."status" in ('requires_confirmation', 'succeeded', 'failed', 'canceled', 'refunded')),
	CONSTRAINT "payments_amount" CHECK ("payments"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "course_sections" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "course_sections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"name" text NOT NULL,
	"number" text,
	"rs_course_id" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"add_drop_at" timestamp with time zone NOT NULL,
	"time_zone" text DEFAULT 'America/New_York' NOT NULL,
	"opting_method" text DEFAULT 'opt-out' NOT NULL,
	"disable_auto_provisioning" boolean DEFAULT false NOT NULL,
	"section_code" text,
	CONSTRAINT "course_sections_dates" CHECK ("course_sections"."end_date" >= "course_sections"."start_date"),
	CONSTRAINT "course_sections_opting_method" CHECK ("course_sections"."opting_method" in ('opt-out', 'no-opt'))
);
--> statement-breakpoint
CREATE TABLE "courses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "courses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"department" text NOT NULL,
	"number" text NOT NULL,
	"course_type" text DEFAULT 'inclusive_access' NOT NULL,
	CONSTRAINT "courses_type" CHECK ("courses"."course_type" in ('inclusive_access', 'lms_ecommerce', 'cds', 'student_choice'))
);
--> statement-breakpoint
CREATE TABLE "opt_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "opt_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"member_id" integer NOT NULL,
	"actor_user_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"reason" smallint,
	"message" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "opt_changes_reason" CHECK ("opt_changes"."reason" is null or "opt_changes"."reason" between 1 and 5),
	CONSTRAINT "opt_changes_message" CHECK ("opt_changes"."message" is null or length("opt_changes"."message") <= 256)
);
--> statement-breakpoint
CREATE TABLE "section_members" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "section_members_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"section_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"opt_status" text DEFAULT 'opted_in' NOT NULL,
	"can_update_opt_status" boolean DEFAULT true NOT NULL,
	"is_course_fee" boolean DEFAULT false NOT NULL,
	"add_drop_date" timestamp with time zone NOT NULL,
	"rs_coursemember_id" text NOT NULL,
	"is_classroom_instructor" boolean DEFAULT false NOT NULL,
	CONSTRAINT "section_members_role" CHECK ("section_members"."role" in ('professor', 'teaching_assistant', 'student')),
	CONSTRAINT "section_members_opt_status" CHECK ("section_members"."opt_status" in ('opted_in', 'opted_out'))
);
--> statement-breakpoint
CREATE TABLE "section_products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "section_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"section_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"additional_product_id" integer,
	"is_physical_digital_choice" boolean DEFAULT false NOT NULL,
	"is_continuation" boolean DEFAULT false NOT NULL,
	"lti_passthrough" smallint,
	"is_link_enabled" boolean DEFAULT false NOT NULL,
	"should_hide_code" boolean DEFAULT false NOT NULL,
	"show_redeem" boolean DEFAULT false NOT NULL,
	"courseware_pricing_id" text,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "section_products_lti" CHECK ("section_products"."lti_passthrough" is null or "section_products"."lti_passthrough" in (0, 2))
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analytics_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"user_id" integer,
	"path" text,
	"props" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"dedupe_key" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"available_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	CONSTRAINT "outbox_dedupeKey_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "ownerships" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ownerships_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"source" text NOT NULL,
	"order_id" uuid,
	"course_section_id" integer,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"is_section_code_confirmed" boolean DEFAULT false NOT NULL,
	"classroom_section_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ownerships_source" CHECK ("ownerships"."source" in ('purchase', 'free', 'course_fee', 'code', 'inclusive_access', 'sample')),
	CONSTRAINT "ownerships_window" CHECK ("ownerships"."expires_at" is null or "ownerships"."expires_at" > "ownerships"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "banners" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "banners_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	CONSTRAINT "banners_kind" CHECK ("banners"."kind" in ('maintenance', 'merger', 'application'))
);
--> statement-breakpoint
CREATE TABLE "feature_flags" (
	"key" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "languages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "languages_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "organizations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"contact_name" text,
	"phone_number" text,
	"email_address" text,
	"is_cds_enabled" boolean DEFAULT false NOT NULL,
	"is_retailer" boolean DEFAULT false NOT NULL,
	"is_bookstore_partner" boolean DEFAULT false NOT NULL,
	"is_follett_org" boolean DEFAULT false NOT NULL,
	"purchase_modal_enabled" boolean DEFAULT false NOT NULL,
	"buys_on_partner_site" boolean DEFAULT false NOT NULL,
	"partner_store_url" text,
	"help_url" text,
	"enable_fee" boolean DEFAULT false NOT NULL,
	"platform_fee_cents" integer DEFAULT 0 NOT NULL,
	"fee_threshold_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_fee_nonnegative" CHECK ("organizations"."platform_fee_cents" >= 0 and "organizations"."fee_threshold_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "vitalsource_configs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vitalsource_configs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"buy_on_vitalsource" boolean DEFAULT false NOT NULL,
	"show_vs_modal" boolean DEFAULT false NOT NULL,
	CONSTRAINT "vitalsource_configs_orgId_unique" UNIQUE("org_id")
);
--> statement-breakpoint
CREATE TABLE "white_labels" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "white_labels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"org_id" integer NOT NULL,
	"title" text NOT NULL,
	"fqdn" text NOT NULL,
	"label_logo" text,
	"support_url" text,
	"help_url" text,
	"privacy_url" text,
	"terms_url" text,
	"refund_url" text,
	"accessibility_url" text,
	"library_url" text,
	"allow_ecommerce" boolean DEFAULT true NOT NULL,
	"show_ecommerce" boolean DEFAULT true NOT NULL,
	"has_label_site" boolean DEFAULT true NOT NULL,
	"is_mtc_enabled_site" boolean DEFAULT false NOT NULL,
	"is_follett_label" boolean DEFAULT false NOT NULL,
	"my_shelf_enabled" boolean DEFAULT true NOT NULL,
	"eula_exempt" boolean DEFAULT false NOT NULL,
	"vs_redirect_url" text,
	"buy_on_vitalsource" boolean DEFAULT false NOT NULL,
	"show_vs_modal" boolean DEFAULT false NOT NULL,
	"is_dashboard_enabled" boolean DEFAULT false NOT NULL,
	"is_campus_insights_enabled" boolean DEFAULT false NOT NULL,
	"allowed_language_codes" text[] DEFAULT '{en,fr-CA}'::text[] NOT NULL,
	"theme" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "white_labels_fqdn_lower" CHECK ("white_labels"."fqdn" = lower("white_labels"."fqdn"))
);
--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_assigned_user_id_users_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_codes" ADD CONSTRAINT "access_codes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_redeemed_by_user_id_users_id_fk" FOREIGN KEY ("redeemed_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_flags" ADD CONSTRAINT "account_flags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_impersonator_id_users_id_fk" FOREIGN KEY ("impersonator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_files" ADD CONSTRAINT "book_files_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_collection_id_products_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_item_id_products_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offerings" ADD CONSTRAINT "offerings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_features" ADD CONSTRAINT "product_features_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_identifiers" ADD CONSTRAINT "product_identifiers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_course_section_id_course_sections_id_fk" FOREIGN KEY ("course_section_id") REFERENCES "public"."course_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_transitions" ADD CONSTRAINT "order_transitions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_course_section_id_course_sections_id_fk" FOREIGN KEY ("course_section_id") REFERENCES "public"."course_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_sections" ADD CONSTRAINT "course_sections_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_changes" ADD CONSTRAINT "opt_changes_member_id_section_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."section_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_changes" ADD CONSTRAINT "opt_changes_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_members" ADD CONSTRAINT "section_members_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_members" ADD CONSTRAINT "section_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_products" ADD CONSTRAINT "section_products_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_products" ADD CONSTRAINT "section_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "section_products" ADD CONSTRAINT "section_products_additional_product_id_products_id_fk" FOREIGN KEY ("additional_product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownerships" ADD CONSTRAINT "ownerships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownerships" ADD CONSTRAINT "ownerships_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownerships" ADD CONSTRAINT "ownerships_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownerships" ADD CONSTRAINT "ownerships_course_section_id_course_sections_id_fk" FOREIGN KEY ("course_section_id") REFERENCES "public"."course_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownerships" ADD CONSTRAINT "ownerships_classroom_section_id_course_sections_id_fk" FOREIGN KEY ("classroom_section_id") REFERENCES "public"."course_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vitalsource_configs" ADD CONSTRAINT "vitalsource_configs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "white_labels" ADD CONSTRAINT "white_labels_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_codes_product_code" ON "access_codes" USING btree ("product_id","code");--> statement-breakpoint
CREATE INDEX "access_codes_pool" ON "access_codes" USING btree ("product_id") WHERE "access_codes"."assigned_user_id" is null;--> statement-breakpoint
CREATE INDEX "access_codes_user" ON "access_codes" USING btree ("assigned_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "redeem_codes_digest" ON "redeem_codes" USING btree ("code_digest");--> statement-breakpoint
CREATE INDEX "login_attempts_email" ON "login_attempts" USING btree (lower("email"),"attempted_at");--> statement-breakpoint
CREATE INDEX "login_attempts_ip" ON "login_attempts" USING btree ("ip_address","attempted_at");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "book_files_product" ON "book_files" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_code_unique" ON "categories" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "categories_slug_unique" ON "categories" USING btree ("url_slug");--> statement-breakpoint
CREATE INDEX "categories_parent" ON "categories" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "offerings_product" ON "offerings" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_categories_category" ON "product_categories" USING btree ("category_id","product_id");--> statement-breakpoint
CREATE INDEX "product_features_product" ON "product_features" USING btree ("product_id","category","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_identifiers_type_value" ON "product_identifiers" USING btree ("type","value");--> statement-breakpoint
CREATE INDEX "product_identifiers_value" ON "product_identifiers" USING btree ("value");--> statement-breakpoint
CREATE INDEX "products_search" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "products_title_trgm" ON "products" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_sales" ON "products" USING btree ("sales_count" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "products_adoptions" ON "products" USING btree ("adoption_count" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "products_type_idx" ON "products" USING btree ("product_type");--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_cart_product" ON "cart_items" USING btree ("cart_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "carts_user" ON "carts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "carts_anonymous" ON "carts" USING btree ("anonymous_token_hash");--> statement-breakpoint
CREATE INDEX "order_items_order" ON "order_items" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_transitions_order" ON "order_transitions" USING btree ("order_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_user" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_gateway_event" ON "payment_events" USING btree ("gateway","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_gateway_ref" ON "payments" USING btree ("gateway","gateway_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_success" ON "payments" USING btree ("order_id") WHERE "payments"."status" = 'succeeded';--> statement-breakpoint
CREATE UNIQUE INDEX "course_sections_rs_course_id" ON "course_sections" USING btree ("rs_course_id");--> statement-breakpoint
CREATE INDEX "course_sections_course" ON "course_sections" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "courses_org" ON "courses" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "opt_changes_member" ON "opt_changes" USING btree ("member_id","changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "section_members_section_user" ON "section_members" USING btree ("section_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "section_members_rs_id" ON "section_members" USING btree ("rs_coursemember_id");--> statement-breakpoint
CREATE INDEX "section_members_user" ON "section_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "section_products_section_product" ON "section_products" USING btree ("section_id","product_id");--> statement-breakpoint
CREATE INDEX "section_products_product" ON "section_products" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "analytics_events_name_time" ON "analytics_events" USING btree ("name","occurred_at");--> statement-breakpoint
CREATE INDEX "outbox_pending" ON "outbox" USING btree ("available_at") WHERE "outbox"."sent_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ownerships_active_unique" ON "ownerships" USING btree ("user_id","product_id") WHERE "ownerships"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "ownerships_user" ON "ownerships" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "white_labels_fqdn_unique" ON "white_labels" USING btree ("fqdn");