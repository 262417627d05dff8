-- Issue 38: a course's own name ('Principles of Biology') finds the course, read by its lower
-- case name (and number, for 'Principles of Biology 101').
CREATE INDEX "courses_name" ON "courses" USING btree (lower("name"),"number");
--> statement-breakpoint
-- Misspelt, it still does ('principals of biolgy', 'biolgy 101'): each word typed is matched
-- (pg_trgm) against this small dictionary of the words of course and department names, and
-- the courses are read again by the words corrected, as search_words does for titles. A name
-- dictionary instead would hold a name for nearly every course, and a thousand names with
-- 'biology' in them to compare with 'biolgy'.
CREATE TABLE course_words (word text PRIMARY KEY);
--> statement-breakpoint
CREATE INDEX course_words_trgm ON course_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
CREATE FUNCTION shelfmark_course_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO course_words (word)
  SELECT DISTINCT w
  FROM changed_rows, to_jsonb(changed_rows) AS r,
    unnest(tsvector_to_array(to_tsvector('simple',
      coalesce(r ->> 'name', '') || ' ' || coalesce(r ->> 'name_fr_ca', '')))) AS w
  WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
INSERT INTO course_words (word)
SELECT word FROM ts_stat($$
  SELECT to_tsvector('simple', name) FROM courses
  UNION ALL SELECT to_tsvector('simple', name || ' ' || coalesce(name_fr_ca, '')) FROM departments
$$)
WHERE length(word) BETWEEN 3 AND 40 AND word !~ '^[0-9]+$'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER courses_course_words_ins AFTER INSERT ON courses REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_course_words();
--> statement-breakpoint
CREATE TRIGGER courses_course_words_upd AFTER UPDATE ON courses REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_course_words();
--> statement-breakpoint
CREATE TRIGGER departments_course_words_ins AFTER INSERT ON departments REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_course_words();
--> statement-breakpoint
CREATE TRIGGER departments_course_words_upd AFTER UPDATE ON departments REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_course_words();
--> statement-breakpoint
ALTER TABLE "account_tokens" ADD COLUMN "device_hash" text;