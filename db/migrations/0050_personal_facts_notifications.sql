-- Issue 40 ("Buying never slows browsing"): every app process now keeps, per user, what a
-- logged-in page shows of them: what they hold (ownerships, their sections with the sections'
-- dates and materials: domain/access/holdings.ts) and their cart's line count
-- (domain/commerce/cart.ts). Migration 0007 names the user when an ownership or a membership
-- changes; these triggers name them ('u:<id>,<id>…') when the rest changes:
--   course_sections   a section's dates, time zone or auto-provisioning: its members;
--   section_products  a section's materials: its members;
--   carts, cart_items a cart or its lines: the cart's account (anonymous carts name no one).
-- Same statement-level design as migrations 0004 and 0007; ids in messages of up to 500 (about
-- 4 kB, under NOTIFY's 8 kB, as migration 0023 does for products); past 5,000 users in one
-- statement, 'users', which forgets everything.
CREATE FUNCTION shelfmark_notify_user_ids(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  chunk text;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  ELSIF cardinality(ids) > 5000 THEN
    PERFORM pg_notify('shelfmark_cache', 'users');
    RETURN;
  END IF;
  FOR chunk IN
    SELECT string_agg(id::text, ',') FROM (
      SELECT id, (row_number() OVER (ORDER BY id) - 1) / 500 AS n FROM unnest(ids) AS id
    ) c GROUP BY n
  LOOP
    PERFORM pg_notify('shelfmark_cache', 'u:' || chunk);
  END LOOP;
END;
$$;
--> statement-breakpoint
-- TG_ARGV[0]: the column of the changed rows holding the section's id. An update names the
-- members of the section before and after (a material moved to another section).
CREATE FUNCTION shelfmark_notify_section_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    EXECUTE format(
      'SELECT array_agg(DISTINCT m.user_id) FROM section_members m WHERE m.section_id IN (SELECT %1$I FROM changed_rows UNION SELECT %1$I FROM old_rows)',
      TG_ARGV[0]) INTO ids;
  ELSE
    EXECUTE format(
      'SELECT array_agg(DISTINCT m.user_id) FROM section_members m WHERE m.section_id IN (SELECT %I FROM changed_rows)',
      TG_ARGV[0]) INTO ids;
  END IF;
  PERFORM shelfmark_notify_user_ids(ids);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A deleted cart's lines go with it: the cart's own trigger names its account.
CREATE FUNCTION shelfmark_notify_cart_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  SELECT array_agg(DISTINCT c.user_id) INTO ids
    FROM carts c
    WHERE c.user_id IS NOT NULL AND c.id IN (SELECT cart_id FROM changed_rows);
  PERFORM shelfmark_notify_user_ids(ids);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A new section has no members yet; a deleted one's members go with it (their own trigger).
CREATE TRIGGER course_sections_users_upd AFTER UPDATE ON course_sections REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_section_users('id');
--> statement-breakpoint
CREATE TRIGGER section_products_users_ins AFTER INSERT ON section_products REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_section_users('section_id');
--> statement-breakpoint
CREATE TRIGGER section_products_users_upd AFTER UPDATE ON section_products REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_section_users('section_id');
--> statement-breakpoint
CREATE TRIGGER section_products_users_del AFTER DELETE ON section_products REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_section_users('section_id');
--> statement-breakpoint
CREATE TRIGGER carts_users_ins AFTER INSERT ON carts REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users('user_id');
--> statement-breakpoint
CREATE TRIGGER carts_users_upd AFTER UPDATE ON carts REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users('user_id');
--> statement-breakpoint
CREATE TRIGGER carts_users_del AFTER DELETE ON carts REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users('user_id');
--> statement-breakpoint
CREATE TRIGGER cart_items_users_ins AFTER INSERT ON cart_items REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_cart_users();
--> statement-breakpoint
CREATE TRIGGER cart_items_users_upd AFTER UPDATE ON cart_items REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_cart_users();
--> statement-breakpoint
CREATE TRIGGER cart_items_users_del AFTER DELETE ON cart_items REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_cart_users();
