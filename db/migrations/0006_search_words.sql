-- The words of every title and author name, for typo-tolerant search: a mistyped word is
-- matched (pg_trgm) against this small dictionary, then searched for as corrected — instead
-- of comparing the whole term with a million titles (measured: 1.4 s p95 at 1M products).
CREATE TABLE search_words (word text PRIMARY KEY);
--> statement-breakpoint
CREATE INDEX search_words_trgm ON search_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
INSERT INTO search_words (word)
SELECT word FROM ts_stat($$SELECT to_tsvector('simple', title || ' ' || authors) FROM products$$)
WHERE length(word) BETWEEN 3 AND 40 AND word !~ '^[0-9]+$'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION shelfmark_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT w
  FROM changed_rows, unnest(tsvector_to_array(to_tsvector('simple', title || ' ' || authors))) AS w
  WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_search_words_ins AFTER INSERT ON products REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_search_words();
--> statement-breakpoint
CREATE TRIGGER products_search_words_upd AFTER UPDATE ON products REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_search_words();
