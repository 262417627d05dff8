-- Issue 15: the import wrote products.contributors as JSON text inside the batch's JSON, so
-- PostgreSQL kept a jsonb *string* holding the array's text (jsonb_typeof = 'string'); it read
-- back right only because the driver parsed it twice. The import now sends the array itself;
-- this turns the rows written before into the arrays they meant.
UPDATE products
SET contributors = (contributors #>> '{}')::jsonb
WHERE jsonb_typeof(contributors) = 'string';
