-- The help desk's people search at a large store (issue 39): 500,000 accounts over 20
-- campuses, 200,000 roster people with campus ids, 50,000 campus sign-ins, 200,000 section
-- places. Run once on an empty, migrated PostgreSQL database (docs/benchmarks.md, "help desk"):
--   psql "$BENCH_DATABASE_URL" -f bench/helpdesk-search-seed.sql
\set ON_ERROR_STOP on
BEGIN;
INSERT INTO organizations (title) SELECT 'Campus ' || g FROM generate_series(1, 20) g;
SELECT min(id) AS org0 FROM organizations \gset

-- Names drawn from short lists, as real ones repeat: 60 given names, 900 surnames.
CREATE TEMP TABLE given ON COMMIT DROP AS
SELECT row_number() OVER () AS n, name FROM unnest(string_to_array(
  'Maya,Liam,Olivia,Noah,Emma,Jacob,Ava,Ethan,Sophia,Lucas,Mia,Mason,Isabella,Logan,Zoe,'
  'Elijah,Chloe,Aiden,Lily,James,Grace,Benjamin,Ella,Samuel,Leah,Owen,Nora,Henry,Aria,Gabriel,'
  'Amelia,Nathan,Hannah,Daniel,Chiara,Mateo,Aisha,Omar,Fatima,Wei,Mei,Hiroshi,Yuki,Priya,Arjun,'
  'Sofia,Diego,Camila,Thomas,Léa,Chloé,Félix,Émile,Zoé,Kwame,Amara,Chidi,Ngozi,Ivan,Olga', ',')) name;
CREATE TEMP TABLE surname ON COMMIT DROP AS
SELECT row_number() OVER () AS n, initcap(a || b) AS name
  FROM unnest(string_to_array('bar,mor,kal,den,fer,gal,hal,jor,lin,mat,nor,pel,ros,san,tor,vel,wil,yar,zan,cor,dal,ell,fin,gor,har,ist,kov,lar,mon,oka', ',')) a,
       unnest(string_to_array('son,ton,ley,man,field,berg,ford,wood,stein,ez,ini,ova,ski,dottir,sen,ard,ier,eau,ani,afor,oto,ura,ing,ell,ick,worth,by,ham,ock,ridge', ',')) b;

-- Three in five accounts belong to a campus; the rest to none (campus people by roster only).
INSERT INTO users (email, first_name, last_name, org_id, created_at)
SELECT translate(lower(g.name), 'éèçô', 'eeco') || '.' || lower(s.name) || '.' || i
         || '@campus' || (i % 20 + 1) || '.edu',
       g.name, s.name,
       CASE WHEN i % 5 < 3 THEN :org0 + i % 20 END,
       now() - (i % 1000) * interval '1 day'
  FROM generate_series(1::bigint, 500000) i
  JOIN given g ON g.n = (i / 900 + i * 7) % 60 + 1
  JOIN surname s ON s.n = (i * 104729) % 900 + 1;

-- 200,000 roster people: every 5th account from the 2nd, campus id S + 8 digits.
INSERT INTO campus_people (org_id, user_id, sourced_id, campus_id)
SELECT :org0 + u.id % 20, u.id, md5(u.id::text), 'S' || lpad(u.id::text, 8, '0')
  FROM users u WHERE u.id % 5 IN (1, 2) ;

-- 50,000 campus sign-ins, one identity provider per campus, campus id E + 8 digits.
INSERT INTO campus_sign_ins (org_id, protocol, oidc_issuer, oidc_client_id)
SELECT id, 'oidc', 'https://idp.campus' || id || '.edu', 'shelfmark' FROM organizations;
INSERT INTO campus_identities (user_id, campus_sign_in_id, issuer, subject, campus_id)
SELECT u.id, (SELECT min(id) FROM campus_sign_ins) + u.id % 20, 'https://idp.campus' || (u.id % 20 + 1) || '.edu',
       md5('sub' || u.id), 'E' || lpad(u.id::text, 8, '0')
  FROM users u WHERE u.id % 10 = 3;

-- 50 sections per campus, 200,000 places among them.
INSERT INTO courses (org_id, name, department, number)
SELECT o.id, 'Course ' || c, 'DEP', c::text FROM organizations o, generate_series(1, 5) c;
INSERT INTO course_sections (course_id, name, rs_course_id, start_date, end_date, add_drop_at)
SELECT c.id, 'Section ' || s, md5(c.id || '-' || s), '2026-08-24', '2026-12-15', '2026-09-05T04:00:00Z'
  FROM courses c, generate_series(1, 10) s;
INSERT INTO section_members (section_id, user_id, role, add_drop_date, rs_coursemember_id)
SELECT (SELECT min(id) FROM course_sections) + (u.id / 5) % 1000, u.id, 'student',
       '2026-09-05T04:00:00Z', md5('m' || u.id)
  FROM users u WHERE u.id % 5 IN (0, 3);
COMMIT;
ANALYZE;
