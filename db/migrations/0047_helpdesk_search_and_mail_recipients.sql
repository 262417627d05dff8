-- Issue 39, the help desk's search (domain/operations/helpdesk/people-search.ts): a part of a
-- name or address is found through trigrams of one lower-cased text per account (address, then
-- the name both ways round, one per line: personSearchText in db/schema/accounts.ts); a campus
-- id, exact, through its own index in the roster and in the campus sign-ins.
CREATE INDEX "users_search_trgm" ON "users" USING gin ((lower("email" || chr(10) || "first_name" || ' ' || "last_name" || chr(10) || "last_name" || ' ' || "first_name")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "campus_identities_campus_id" ON "campus_identities" USING btree ("campus_id");--> statement-breakpoint
CREATE INDEX "campus_people_campus_id" ON "campus_people" USING btree ("campus_id");--> statement-breakpoint
-- Issue 39, the help desk's "mails sent": whom each message is for is written when it is
-- queued (domain/notifications/outbox.ts, enqueue): the account, and the address it goes to,
-- lower-cased. Messages already queued take them from what their payload names, as the
-- worker reads it (server/outbox-worker.ts); a message whose row is gone keeps none.
ALTER TABLE "outbox" ADD COLUMN "recipient_user_id" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "recipient_email" text;--> statement-breakpoint
-- Security notices, sign-up notices, notices of a change of address: the account named.
UPDATE "outbox" o SET "recipient_user_id" = u."id"
  FROM "users" u WHERE u."id"::text = o."payload" ->> 'userId';--> statement-breakpoint
-- A mailed link: its account, and the address it was made for.
UPDATE "outbox" o SET "recipient_user_id" = t."user_id", "recipient_email" = lower(t."email")
  FROM "account_tokens" t
 WHERE o."kind" = 'account-link' AND t."id"::text = o."payload" ->> 'tokenId';--> statement-breakpoint
-- An order's confirmation, refund or refused refund: its buyer.
UPDATE "outbox" o SET "recipient_user_id" = r."user_id"
  FROM "orders" r WHERE r."id"::text = o."payload" ->> 'orderId';--> statement-breakpoint
UPDATE "outbox" o SET "recipient_user_id" = r."user_id"
  FROM "refunds" f JOIN "orders" r ON r."id" = f."order_id"
 WHERE o."kind" IN ('line-refund', 'line-refund-refused') AND f."id"::text = o."payload" ->> 'refundId';--> statement-breakpoint
-- An opting confirmation: the section's member.
UPDATE "outbox" o SET "recipient_user_id" = m."user_id"
  FROM "opt_changes" c JOIN "section_members" m ON m."id" = c."member_id"
 WHERE c."id"::text = o."payload" ->> 'optChangeId';--> statement-breakpoint
UPDATE "outbox" o SET "recipient_user_id" = p."user_id"
  FROM "privacy_requests" p
 WHERE o."kind" LIKE 'privacy-%' AND p."id"::text = o."payload" ->> 'requestId';--> statement-breakpoint
-- A kept section place: its address, and the account that took the place, if one did.
UPDATE "outbox" o SET "recipient_email" = lower(s."email"), "recipient_user_id" = s."claimed_by_user_id"
  FROM "section_invitations" s
 WHERE o."kind" = 'section-place' AND s."id"::text = o."payload" ->> 'placeId';--> statement-breakpoint
-- The notice of a change of address goes to the old one; the rest to the account's.
UPDATE "outbox" SET "recipient_email" = lower("payload" ->> 'oldEmail')
 WHERE "kind" = 'email-change-notice' AND "payload" ? 'oldEmail';--> statement-breakpoint
UPDATE "outbox" o SET "recipient_email" = lower(u."email")
  FROM "users" u WHERE o."recipient_email" IS NULL AND u."id" = o."recipient_user_id";--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_recipient_user" ON "outbox" USING btree ("recipient_user_id","id");--> statement-breakpoint
CREATE INDEX "outbox_recipient_email" ON "outbox" USING btree ("recipient_email","id");
