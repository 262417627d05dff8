CREATE TABLE "redeem_attempts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer,
	"ip_address" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"code_last4" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "redeem_attempts" ADD CONSTRAINT "redeem_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redeem_attempts_user" ON "redeem_attempts" USING btree ("user_id","attempted_at");--> statement-breakpoint
CREATE INDEX "redeem_attempts_ip" ON "redeem_attempts" USING btree ("ip_address","attempted_at");