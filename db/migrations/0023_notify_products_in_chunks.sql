-- Issue 15: a catalog import writes products a thousand at a time. Migration 0004 told every
-- app process to forget everything ('all') for any statement touching more than 100 products,
-- so during an import no page stayed cached and a shopper's product page went from 5 ms to
-- 150 ms at p99. Now the changed products are named in messages of up to 500 ids (about 4 kB,
-- under NOTIFY's 8 kB), so only pages showing them are forgotten; past 5,000 products in one
-- statement (a mass update by hand) it is still 'all'. Pages that list products and do not
-- show the new ones (search, browse) catch up within the page cache's TTL (60 s by default).
CREATE OR REPLACE FUNCTION shelfmark_notify_products() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
  n integer;
BEGIN
  EXECUTE format('SELECT count(DISTINCT %I) FROM changed_rows', TG_ARGV[0]) INTO n;
  IF n = 0 THEN
    RETURN NULL;
  ELSIF n > 5000 THEN
    PERFORM pg_notify('shelfmark_cache', 'all');
  ELSE
    FOR ids IN EXECUTE format(
      'SELECT string_agg(id::text, '','') FROM (SELECT DISTINCT %1$I AS id, (dense_rank() OVER (ORDER BY %1$I) - 1) / 500 AS chunk FROM changed_rows) c GROUP BY chunk',
      TG_ARGV[0])
    LOOP
      PERFORM pg_notify('shelfmark_cache', 'p:' || ids);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
