import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRosterPackage } from './package-reader.ts';

// Issue 39, "Rosters … as IMS OneRoster 1.2 CSV (the zip or its files)": what real exports do is
// read (BOM, CRLF, quoted commas, UTF-8 names byte for byte); a package that cannot be one is
// refused as a whole with the reason; a bad row is refused alone with file, line and reason.

const FIXTURE = path.resolve('tests/fixtures/oneroster/bulk');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture package with some files replaced (text written as given). */
function packageWith(files: Record<string, string | null> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'roster-unit-'));
  dirs.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    if (text === null) rmSync(path.join(dir, name));
    else writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const manifest = (extra: string) =>
  `propertyName,value\nmanifest.version,1.0\noneroster.version,1.2\nfile.orgs,bulk\n${extra}`;

async function read(location: string) {
  const reading = await readRosterPackage(location);
  if (!reading.ok) throw new Error(`refused: ${reading.reason.message}`);
  return reading.package;
}

describe('issue 39: a OneRoster 1.2 CSV package read as real exports write it', () => {
  it('reads a BOM, CRLF and quoted fields with commas, and keeps names byte for byte', async () => {
    const pkg = await read(FIXTURE);
    expect(pkg.manifest.systemName).toBe('Riverside SIS');
    expect(pkg.manifest.modes.users).toBe('bulk');
    expect(pkg.rows.orgs[0]!.name).toBe('Université de Riverbend, campus principal');
    expect(pkg.rows.courses[0]!.title).toBe('Biology: Cells, Genes and Life');
    const names = pkg.rows.users.map((u) => `${u.givenName} ${u.familyName}`);
    expect(names).toContain('Zoë Østergaard');
    expect(names).toContain("Seán O'Brien");
    expect(names).toContain('結衣 田中');
    expect(names).toContain('Ελένη Παπαδοπούλου');
    expect(names).toContain('Marc-André Lefèvre, Jr.');
    expect(pkg.rows.users[0]!.sourcedId).toBe('usr-Ø1');
    expect(Buffer.from(pkg.rows.users[0]!.sourcedId)).toEqual(Buffer.from('usr-Ø1', 'utf8'));
    // A class in two terms, listed in a quoted field.
    expect(pkg.rows.classes[1]!.termSourcedIds).toEqual(['sp-2027-a', 'sp-2027-b']);
    expect(pkg.rows.enrollments.find((e) => e.sourcedId === 'enr-3')!.primary).toBe(true);
    expect(pkg.rows.enrollments.find((e) => e.sourcedId === 'enr-2')!.primary).toBe(false);
    expect(pkg.refusals).toEqual([]);
    expect(pkg.rowCount).toBe(33);
  });

  it('reads the same package from a zip', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'roster-zip-'));
    dirs.push(dir);
    const zip = path.join(dir, 'export.zip');
    execFileSync('zip', [
      '-q',
      '-j',
      zip,
      ...[
        'manifest.csv',
        'orgs.csv',
        'academicSessions.csv',
        'courses.csv',
        'classes.csv',
        'users.csv',
        'roles.csv',
        'enrollments.csv',
      ].map((f) => path.join(FIXTURE, f)),
    ]);
    const pkg = await read(zip);
    expect(pkg.rows.users.map((u) => u.givenName)).toEqual(
      (await read(FIXTURE)).rows.users.map((u) => u.givenName),
    );
  });

  it('refuses a file that is not a zip', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'roster-notzip-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'x.zip'), 'not a zip at all');
    expect(await readRosterPackage(path.join(dir, 'x.zip'))).toEqual({
      ok: false,
      reason: { message: 'ops.roster.refused.notZip' },
    });
  });
});

describe('issue 39: a package is refused as a whole, with the reason', () => {
  it.each([
    [
      'a wrong oneroster.version',
      {
        'manifest.csv':
          'propertyName,value\nmanifest.version,1.0\noneroster.version,1.1\nfile.orgs,bulk\n',
      },
      { message: 'ops.roster.refused.onerosterVersion', values: { found: '1.1', expected: '1.2' } },
    ],
    [
      'a wrong manifest.version',
      {
        'manifest.csv':
          'propertyName,value\nmanifest.version,2.0\noneroster.version,1.2\nfile.orgs,bulk\n',
      },
      { message: 'ops.roster.refused.manifestVersion', values: { found: '2.0', expected: '1.0' } },
    ],
    [
      'a file the manifest lists that is absent',
      { 'manifest.csv': manifest('file.users,bulk\n'), 'users.csv': null },
      { message: 'ops.roster.refused.missingFile', values: { file: 'users.csv' } },
    ],
    [
      'a missing required column',
      {
        'manifest.csv': manifest('file.courses,bulk\n'),
        'courses.csv': 'sourcedId,status,dateLastModified,title\nc1,,,Course\n',
      },
      {
        message: 'ops.roster.refused.missingColumn',
        values: { file: 'courses.csv', column: 'orgSourcedId' },
      },
    ],
    ['no manifest', { 'manifest.csv': null }, { message: 'ops.roster.refused.noManifest' }],
    [
      'a file mode outside absent, bulk and delta',
      { 'manifest.csv': manifest('file.users,full\n') },
      { message: 'ops.roster.refused.fileMode', values: { file: 'users.csv', mode: 'full' } },
    ],
  ])('%s', async (_name, files, reason) => {
    expect(await readRosterPackage(packageWith(files))).toEqual({ ok: false, reason });
  });

  it('text that is not UTF-8', async () => {
    const dir = packageWith({ 'manifest.csv': manifest('') });
    writeFileSync(
      path.join(dir, 'orgs.csv'),
      Buffer.concat([
        Buffer.from('sourcedId,status,dateLastModified,name,type\norg1,,,Universit'),
        Buffer.from([0xe9]),
        Buffer.from(',school\n'),
      ]),
    );
    expect(await readRosterPackage(dir)).toEqual({
      ok: false,
      reason: { message: 'ops.roster.refused.encoding', values: { file: 'orgs.csv' } },
    });
  });
});

describe('issue 39: a bad row is refused alone with file, line and reason', () => {
  it('refuses a bad date, an unknown token, a blank required value, a duplicate sourcedId and a NUL', async () => {
    const header = readFileSync(path.join(FIXTURE, 'academicSessions.csv'), 'utf8').split(
      '\r\n',
    )[0];
    const dir = packageWith({
      'manifest.csv': manifest('file.academicSessions,delta\n'),
      'academicSessions.csv': [
        header,
        't1,active,2027-01-01T00:00:00Z,Fall,term,2026-09-01,2026-12-20,,2027',
        't2,active,2027-01-01T00:00:00Z,Bad,term,2026-02-30,2026-12-20,,2027',
        't3,active,2027-01-01T00:00:00Z,Bad,season,2026-09-01,2026-12-20,,2027',
        't4,active,2027-01-01T00:00:00Z,,term,2026-09-01,2026-12-20,,2027',
        't1,active,2027-01-01T00:00:00Z,Again,term,2026-09-01,2026-12-20,,2027',
        't5,,,No status in a delta,term,2026-09-01,2026-12-20,,2027',
        't6,active,2027-01-01T00:00:00Z,Nul\u0000,term,2026-09-01,2026-12-20,,2027',
        't7,active,2027-01-01T00:00:00Z,Short,term',
        '',
      ].join('\n'),
    });
    const pkg = await read(dir);
    expect(pkg.rows.academicSessions.map((t) => t.sourcedId)).toEqual(['t1']);
    expect(
      pkg.refusals.map(({ file, line, sourcedId, reason, values }) => ({
        file,
        line,
        sourcedId,
        reason,
        values,
      })),
    ).toEqual([
      {
        file: 'academicSessions.csv',
        line: 3,
        sourcedId: 't2',
        reason: 'ops.roster.line.badDate',
        values: { column: 'startDate', value: '2026-02-30' },
      },
      {
        file: 'academicSessions.csv',
        line: 4,
        sourcedId: 't3',
        reason: 'ops.roster.line.badValue',
        values: { column: 'type', value: 'season' },
      },
      {
        file: 'academicSessions.csv',
        line: 5,
        sourcedId: 't4',
        reason: 'ops.roster.line.required',
        values: { column: 'title' },
      },
      {
        file: 'academicSessions.csv',
        line: 6,
        sourcedId: 't1',
        reason: 'ops.roster.line.duplicate',
        values: undefined,
      },
      {
        file: 'academicSessions.csv',
        line: 7,
        sourcedId: 't5',
        reason: 'ops.roster.line.required',
        values: { column: 'status' },
      },
      {
        file: 'academicSessions.csv',
        line: 8,
        sourcedId: 't6',
        reason: 'ops.roster.line.badText',
        values: { column: 'title' },
      },
      {
        file: 'academicSessions.csv',
        line: 9,
        sourcedId: null,
        reason: 'ops.roster.line.fieldCount',
        values: { found: 5, expected: 9 },
      },
    ]);
  });

  it('reads an enrolment’s beginDate and endDate; refuses one that ends before it begins', async () => {
    const dir = packageWith({
      'manifest.csv': manifest('file.enrollments,bulk\n'),
      'enrollments.csv': [
        'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate',
        'e1,,,c1,org-univ,u1,student,,2027-01-11,2027-05-15',
        'e2,,,c1,org-univ,u2,student,,,',
        'e3,,,c1,org-univ,u3,student,,2027-05-15,2027-01-11',
        'e4,,,c1,org-univ,u4,student,,2027-01-11,2027-01-11',
        '',
      ].join('\n'),
    });
    const pkg = await read(dir);
    expect(
      pkg.rows.enrollments.map(({ sourcedId, beginDate, endDate }) => [
        sourcedId,
        beginDate,
        endDate,
      ]),
    ).toEqual([
      ['e1', '2027-01-11', '2027-05-15'],
      ['e2', null, null],
      ['e4', '2027-01-11', '2027-01-11'],
    ]);
    expect(pkg.refusals.map(({ line, sourcedId, reason }) => [line, sourcedId, reason])).toEqual([
      [4, 'e3', 'ops.roster.line.enrolmentEndsBeforeStart'],
    ]);
  });
});
