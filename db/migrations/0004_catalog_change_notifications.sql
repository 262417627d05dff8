-- Every app process keeps rendered anonymous pages and shared lookups in memory; these
-- triggers tell all of them, through NOTIFY on channel 'shelfmark_cache', what changed:
--   'p:<id>,<id>…'  the products whose rows (or offerings, identifiers, files…) changed;
--   'all'           a site, banner or category changed, or too many products to list.
-- Statement-level triggers with transition tables: a bulk import sends one message per
-- statement, not one per row.
CREATE FUNCTION shelfmark_notify_products() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
  n integer;
BEGIN
  EXECUTE format('SELECT count(DISTINCT %I) FROM changed_rows', TG_ARGV[0]) INTO n;
  IF n = 0 THEN
    RETURN NULL;
  ELSIF n > 100 THEN
    PERFORM pg_notify('shelfmark_cache', 'all');
  ELSE
    EXECUTE format('SELECT string_agg(DISTINCT %1$I::text, '','') FROM changed_rows', TG_ARGV[0])
      INTO ids;
    PERFORM pg_notify('shelfmark_cache', 'p:' || ids);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION shelfmark_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shelfmark_cache', 'all');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('products', 'id'),
    ('offerings', 'product_id'),
    ('product_identifiers', 'product_id'),
    ('product_categories', 'product_id'),
    ('product_features', 'product_id'),
    ('collection_items', 'collection_id'),
    ('book_files', 'product_id')
  ) AS v(tbl, col) LOOP
    EXECUTE format('CREATE TRIGGER %1$s_cache_ins AFTER INSERT ON %1$I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_products(%2$L)', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %1$s_cache_upd AFTER UPDATE ON %1$I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_products(%2$L)', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %1$s_cache_del AFTER DELETE ON %1$I REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_products(%2$L)', t.tbl, t.col);
  END LOOP;
  FOR t IN SELECT * FROM (VALUES
    ('categories'), ('organizations'), ('white_labels'), ('banners'), ('feature_flags'), ('languages')
  ) AS v(tbl) LOOP
    EXECUTE format('CREATE TRIGGER %1$s_cache_all AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %1$I FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_notify_all()', t.tbl);
  END LOOP;
END;
$$;
