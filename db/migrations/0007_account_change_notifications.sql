-- Every app process keeps the user behind each live session, and each user's ownerships,
-- for a few seconds; these triggers tell all of them whose account changed ('u:<id>,<id>…'),
-- so a logout, a role or flag change, a new section or a purchase counts at once everywhere.
-- Same statement-level design as migration 0004.
CREATE FUNCTION shelfmark_notify_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
  n integer;
BEGIN
  EXECUTE format('SELECT count(DISTINCT %I) FROM changed_rows', TG_ARGV[0]) INTO n;
  IF n = 0 THEN
    RETURN NULL;
  ELSIF n > 100 THEN
    PERFORM pg_notify('shelfmark_cache', 'users');
  ELSE
    EXECUTE format('SELECT string_agg(DISTINCT %1$I::text, '','') FROM changed_rows WHERE %1$I IS NOT NULL', TG_ARGV[0])
      INTO ids;
    IF ids IS NOT NULL THEN
      PERFORM pg_notify('shelfmark_cache', 'u:' || ids);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('users', 'id'),
    ('user_roles', 'user_id'),
    ('account_flags', 'user_id'),
    ('section_members', 'user_id'),
    ('ownerships', 'user_id')
  ) AS v(tbl, col) LOOP
    EXECUTE format('CREATE TRIGGER %1$s_users_ins AFTER INSERT ON %1$I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users(%2$L)', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %1$s_users_upd AFTER UPDATE ON %1$I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users(%2$L)', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %1$s_users_del AFTER DELETE ON %1$I REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users(%2$L)', t.tbl, t.col);
  END LOOP;
  -- A new session changes nothing cached; ending or extending one does.
  CREATE TRIGGER sessions_users_upd AFTER UPDATE ON sessions REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users('user_id');
  CREATE TRIGGER sessions_users_del AFTER DELETE ON sessions REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_users('user_id');
END;
$$;
