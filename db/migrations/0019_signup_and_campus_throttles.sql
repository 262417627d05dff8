ALTER TABLE "account_mail_requests" DROP CONSTRAINT "account_mail_requests_kind";--> statement-breakpoint
ALTER TABLE "campus_sign_in_requests" ADD COLUMN "ip_address" text;--> statement-breakpoint
CREATE INDEX "campus_sign_in_requests_ip" ON "campus_sign_in_requests" USING btree ("ip_address");--> statement-breakpoint
ALTER TABLE "account_mail_requests" ADD CONSTRAINT "account_mail_requests_kind" CHECK ("account_mail_requests"."kind" in ('reset-password', 'verify-email', 'sign-up'));