ALTER TABLE "ownerships" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
ALTER TABLE "ownerships" ADD CONSTRAINT "ownerships_revoked_reason" CHECK ("ownerships"."revoked_reason" is null or ("ownerships"."revoked_at" is not null and "ownerships"."revoked_reason" in ('refund', 'optOut', 'enrolmentEnded', 'roleChanged', 'accountDeleted')));--> statement-breakpoint
-- Revocations made before this migration: the reason found from what caused them, where the
-- cause left a trace (each revoking change stamps revoked_at with its own instant); null where
-- none did (the help desk then says the reason was not recorded).
UPDATE "ownerships" o SET "revoked_reason" = 'accountDeleted'
  FROM "deleted_accounts" d
  WHERE o."revoked_reason" IS NULL AND d."user_id" = o."user_id" AND o."revoked_at" = d."deleted_at";--> statement-breakpoint
UPDATE "ownerships" o SET "revoked_reason" = 'refund'
  WHERE o."revoked_at" IS NOT NULL AND o."revoked_reason" IS NULL AND o."order_id" IS NOT NULL
    AND (
      EXISTS (
        SELECT 1 FROM "refunds" r JOIN "order_items" i ON i."id" = r."order_item_id"
        WHERE r."order_id" = o."order_id" AND i."product_id" = o."product_id" AND r."status" = 'refunded'
      )
      OR EXISTS (
        SELECT 1 FROM "payments" p WHERE p."order_id" = o."order_id" AND p."status" = 'refunded'
      )
    );--> statement-breakpoint
UPDATE "ownerships" o SET "revoked_reason" = 'enrolmentEnded'
  WHERE o."revoked_at" IS NOT NULL AND o."revoked_reason" IS NULL AND o."course_section_id" IS NOT NULL
    AND EXISTS (
      SELECT 1 FROM "section_member_drops" d
      WHERE d."user_id" = o."user_id" AND d."section_id" = o."course_section_id"
        AND d."dropped_at" = o."revoked_at"
    );--> statement-breakpoint
UPDATE "ownerships" o SET "revoked_reason" = 'optOut'
  WHERE o."revoked_at" IS NOT NULL AND o."revoked_reason" IS NULL AND o."course_section_id" IS NOT NULL
    AND EXISTS (
      SELECT 1 FROM "opt_changes" c JOIN "section_members" m ON m."id" = c."member_id"
      WHERE m."user_id" = o."user_id" AND m."section_id" = o."course_section_id"
        AND c."to_status" = 'opted_out' AND c."changed_at" = o."revoked_at"
    );
