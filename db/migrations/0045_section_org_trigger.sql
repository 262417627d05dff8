-- Issue 39, decision 036: a section carries its course's organisation (course_sections.org_id),
-- written here by the database whoever inserts or moves a section (staff, the roster import,
-- the seed), so that the unique index course_sections_org_code (0044) can hold a classroom
-- section code unique among a campus's running sections. Hand-written: keep it when the
-- schema's migrations are generated again.
CREATE FUNCTION shelfmark_section_org() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.org_id INTO NEW.org_id FROM courses c WHERE c.id = NEW.course_id;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER course_sections_org BEFORE INSERT OR UPDATE OF course_id, org_id ON course_sections
  FOR EACH ROW EXECUTE FUNCTION shelfmark_section_org();
--> statement-breakpoint
CREATE FUNCTION shelfmark_course_sections_org() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE course_sections SET org_id = NEW.org_id WHERE course_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER courses_sections_org AFTER UPDATE OF org_id ON courses
  FOR EACH ROW WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id)
  EXECUTE FUNCTION shelfmark_course_sections_org();
--> statement-breakpoint
UPDATE course_sections s SET org_id = c.org_id FROM courses c WHERE c.id = s.course_id;
