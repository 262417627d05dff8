-- Campus Favorites (issue 13): products.adoption_count counts the course sections that adopted
-- the product, kept true by the database whoever adds or removes a section's material (the
-- seed, rosters, the adoption tools to come). Statement-level, so a bulk insert of a term's
-- adoptions updates each product once.
CREATE FUNCTION shelfmark_count_adoptions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE products p SET adoption_count = greatest(p.adoption_count - d.n, 0)
    FROM (SELECT product_id, count(*)::int AS n FROM old_rows GROUP BY product_id) d
    WHERE p.id = d.product_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE products p SET adoption_count = p.adoption_count + a.n
    FROM (SELECT product_id, count(*)::int AS n FROM new_rows GROUP BY product_id) a
    WHERE p.id = a.product_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER section_products_adoptions_ins AFTER INSERT ON section_products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_count_adoptions();
--> statement-breakpoint
CREATE TRIGGER section_products_adoptions_del AFTER DELETE ON section_products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_count_adoptions();
--> statement-breakpoint
CREATE TRIGGER section_products_adoptions_upd AFTER UPDATE ON section_products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_count_adoptions();
