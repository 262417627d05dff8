CREATE TABLE "claim_code_checks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_code_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"checker_user_id" integer NOT NULL,
	"ip_address" text NOT NULL,
	"code_last4" text NOT NULL,
	"found" boolean NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claim_code_checks" ADD CONSTRAINT "claim_code_checks_checker_user_id_users_id_fk" FOREIGN KEY ("checker_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_code_checks_checker" ON "claim_code_checks" USING btree ("checker_user_id","checked_at");