-- Issue 39, the help desk's search (domain/operations/helpdesk/people-search.ts): a part of a
-- name or address is found through trigrams of one lower-cased text per account (address, then
-- the name both ways round, one per line: personSearchText in db/schema/accounts.ts); a campus
-- id, exact, through its own index in the roster and in the campus sign-ins.
CREATE INDEX "users_search_trgm" ON "users" USING gin ((lower("email" || chr(10) || "first_name" || ' ' || "last_name" || chr(10) || "last_name" || ' ' || "first_name")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "campus_identities_campus_id" ON "campus_identities" USING btree ("campus_id");--> statement-breakpoint
CREATE INDEX "campus_people_campus_id" ON "campus_people" USING btree ("campus_id");