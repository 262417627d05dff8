import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locale } from '#domain/accounts/language.ts';
import type { AuditLine } from '#domain/operations/audit.ts';
import { AUDIT_ACTIONS } from '#domain/operations/audit-actions.ts';
import { en } from '#i18n/messages/en.ts';
import { frCA } from '#i18n/messages/fr-CA.ts';
import { translate } from '#i18n/translate.ts';
import {
  AUDIT_ACTION_MESSAGES,
  AUDIT_FIELDS,
  type AuditReader,
  auditActionText,
  auditChanges,
  humanized,
} from './audit-wording.ts';

// Issue 39: "the audit is readable on the object's page" — every recorded action and field in
// words, in English and French, values as the reader reads them.

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((f) => f.isFile() && /\.tsx?$/.test(f.name) && !/\.test\.tsx?$/.test(f.name))
    .map((f) => join(f.parentPath, f.name));
}

/** The files that write audit entries, and what they write. */
const writers = ['domain', 'web', 'api', 'scripts']
  .flatMap(sourceFiles)
  .map((file) => readFileSync(file, 'utf8'))
  .filter((text) => /recordAudits?\(|audit_events|audit(?:Change|edEdit|End\w*)\(/.test(text));

/** The action literals of every audit entry the code base writes (`action: …` expressions). */
function recordedActions(): Set<string> {
  const found = new Set<string>();
  for (const text of writers) {
    for (const m of text.matchAll(/\baction: ([^\n]+(?:\n\s+[?:][^\n]+)*)/g)) {
      for (const literal of m[1]!.matchAll(/(?<![=!]== )'([a-z][\w.-]*)'/g)) found.add(literal[1]!);
    }
    // The course admin's audit helpers (course-admin-audit.ts) take the action as an argument.
    for (const m of text.matchAll(/\baudit(?:Change|edEdit|End\w*)\([^;]*?'([a-z]+\.[a-z]+)'/g)) {
      found.add(m[1]!);
    }
  }
  return found;
}

/** Keys of the before/after object literals written beside them. */
function recordedFields(): Set<string> {
  const found = new Set<string>();
  for (const text of writers) {
    for (const m of text.matchAll(/\b(?:before|after): \{/g)) {
      let depth = 1;
      let i = m.index! + m[0].length;
      const start = i;
      while (depth > 0 && i < text.length) {
        if (text[i] === '{') depth++;
        if (text[i] === '}') depth--;
        i++;
      }
      const body = text.slice(start, i - 1);
      let level = 0;
      let top = '';
      for (const ch of body) {
        if (ch === '{' || ch === '(' || ch === '[') level++;
        if (ch === '}' || ch === ')' || ch === ']') level--;
        else if (level === 0) top += ch;
      }
      for (const part of top.split(',')) {
        const key = /^\s*([a-zA-Z]\w*)\s*(?::|$)/.exec(part);
        if (key) found.add(key[1]!);
      }
    }
  }
  return found;
}

/** Intl's narrow and no-break spaces as plain ones, so the expectations read. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

function reader(locale: Locale, timeZone = 'America/Toronto'): AuditReader {
  return { t: (id, params) => plain(translate(locale, id, params)), locale, timeZone };
}

function line(overrides: Partial<AuditLine>): AuditLine {
  return {
    id: 1,
    occurredAt: new Date('2026-12-06T15:00:00Z'),
    actorLabel: 'Alex Morgan <manager@demo.test>',
    actingAsUserId: null,
    action: 'section.create',
    before: null,
    after: null,
    reason: null,
    people: {},
    terms: {},
    products: {},
    ...overrides,
  };
}

describe('the audit in words (issue 39)', () => {
  it('every action the code base records is one of AUDIT_ACTIONS (the recordAudit type)', () => {
    const used = recordedActions();
    expect(used.size).toBeGreaterThanOrEqual(25);
    expect([...used].filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a))).toEqual([]);
  });

  it('every action has a message of its own in English and in French', () => {
    const generic = new Set([en['error.generic'], frCA['error.generic']]);
    for (const action of AUDIT_ACTIONS) {
      const id = AUDIT_ACTION_MESSAGES[action];
      expect(en[id], action).toBeTruthy();
      expect(frCA[id], action).toBeTruthy();
      for (const locale of ['en', 'fr-CA'] as const) {
        const text = auditActionText(line({ action, actingAsUserId: 5 }), reader(locale));
        expect(generic.has(text), `${locale} ${action}`).toBe(false);
        expect(text, `${locale} ${action}`).not.toMatch(/\b[a-z]+\.[a-z]+\b|^[a-z]+$/);
      }
    }
    // No two actions read the same.
    expect(new Set(Object.values(AUDIT_ACTION_MESSAGES)).size).toBe(AUDIT_ACTIONS.length);
  });

  it('every field the code base records has a label in both languages', () => {
    // The fields spread in from value types (course-admin-service, roster-apply) beside those
    // written as literals.
    const spread = [
      ...['title', 'termType', 'startDate', 'endDate', 'parent', 'sourcedId'],
      ...['name', 'department', 'number', 'courseType', 'course', 'term'],
      ...['termId', 'timeZone', 'addDropAt', 'dropPeriodEndsAt', 'optingMethod'],
      ...['courseFeeCents', 'sectionCode', 'endedAt'],
    ];
    const fields = new Set([...recordedFields(), ...spread]);
    expect(fields.size).toBeGreaterThanOrEqual(40);
    expect([...fields].filter((f) => !Object.hasOwn(AUDIT_FIELDS, f))).toEqual([]);
    for (const [field, { label }] of Object.entries(AUDIT_FIELDS)) {
      expect(en[label], field).toBeTruthy();
      expect(frCA[label], field).toBeTruthy();
    }
  });

  it('a section created reads in the manager’s words: money, the deadline on the section’s clock, labels', () => {
    const created = line({
      action: 'section.create',
      after: {
        name: 'Section 001',
        termId: 12,
        startDate: '2027-01-11',
        timeZone: 'America/Los_Angeles',
        addDropAt: '2027-01-31T07:59:00.000Z',
        dropPeriodEndsAt: null,
        optingMethod: 'opt-out',
        courseFeeCents: 5900,
      },
    });
    const words = (locale: Locale) =>
      auditChanges(created.after, created, reader(locale)).map((c) =>
        plain(`${c.label}: ${c.value}`),
      );
    expect(auditActionText(created, reader('en'))).toBe('Section created');
    expect(words('en')).toEqual([
      'Title: Section 001',
      'Term: #12',
      'Start date: Jan 11, 2027',
      'Course time zone: America/Los_Angeles',
      'Opt-out deadline: Jan 30, 2027, 11:59 PM PST',
      'End of the add/drop period: (none)',
      'Opting: Students may opt out',
      'Course fee: $59.00',
    ]);
    expect(auditActionText(created, reader('fr-CA'))).toBe('Section créée');
    const fr = words('fr-CA');
    expect(fr).toContain('Frais de cours: 59,00 $ US');
    expect(fr).toContain('Date limite de désinscription: 30 janv. 2027, 23 h 59 HNP');
    expect(fr).toContain('Adhésion: Les étudiants peuvent se désinscrire');
  });

  it('an edit without the zone shows its instants in the reader’s zone, the zone named', () => {
    const edited = line({
      action: 'section.edit',
      before: { addDropAt: '2027-01-31T04:59:00.000Z', courseFeeCents: null },
      after: { addDropAt: '2027-02-07T04:59:00.000Z', courseFeeCents: 7900 },
    });
    const [deadline, fee] = auditChanges(edited.before, edited, reader('en'));
    expect(plain(deadline!.value)).toBe('Jan 30, 2027, 11:59 PM EST');
    expect(fee!.value).toBe('None');
    expect(auditChanges(edited.after, edited, reader('en'))[1]!.value).toBe('$79.00');
  });

  it('people by name, else “person #id”; yes/no; roles and opt status by their labels', () => {
    const ended = line({
      action: 'member.end',
      people: { 53: 'Sam Lee' },
      before: {
        userId: 53,
        role: 'teaching_assistant',
        optStatus: 'opted_in',
        isCourseFee: false,
        source: 'roster',
      },
    });
    const text = (locale: Locale) =>
      auditChanges(ended.before, ended, reader(locale)).map((c) => plain(`${c.label}: ${c.value}`));
    expect(text('en')).toEqual([
      'Person: Sam Lee',
      'Role: Teaching assistant',
      'Opt status: Opted in',
      'Billed by course fee: No',
      'Made by: Roster import',
    ]);
    expect(text('fr-CA')).toEqual([
      'Personne: Sam Lee',
      'Rôle: Auxiliaire d’enseignement',
      'Adhésion: Inscrit',
      'Facturé en frais de cours: Non',
      'Fait par: Importation de la liste de classe',
    ]);
    const unknown = line({ action: 'member.add', after: { userId: 54 } });
    expect(auditChanges(unknown.after, unknown, reader('en'))[0]!.value).toBe('person #54');
    expect(auditChanges(unknown.after, unknown, reader('fr-CA'))[0]!.value).toBe('personne no 54');
  });

  it('terms and products by their names, not their ids; an id the trail did not name reads “#id”', () => {
    const moved = line({
      action: 'section.edit',
      terms: { 12: 'Fall 2026', 13: 'Winter 2027' },
      before: { termId: 12 },
      after: { termId: 13 },
    });
    for (const locale of ['en', 'fr-CA'] as const) {
      expect(auditChanges(moved.before, moved, reader(locale))[0]!.value).toBe('Fall 2026');
      expect(auditChanges(moved.after, moved, reader(locale))[0]!.value).toBe('Winter 2027');
    }
    const added = line({
      action: 'material.add',
      products: { 301: 'Campbell Biology' },
      after: { productId: 301, required: true },
    });
    expect(
      auditChanges(added.after, added, reader('en')).map((c) => `${c.label}: ${c.value}`),
    ).toEqual(['Product: Campbell Biology', 'Required: Yes']);
    expect(auditChanges(added.after, added, reader('fr-CA'))[0]!.value).toBe('Campbell Biology');
    const gone = line({ action: 'material.remove', before: { productId: 302 } });
    expect(auditChanges(gone.before, gone, reader('en'))[0]!.value).toBe('#302');
  });

  it('Switch Account reads with the person acted as; staff roles by their labels', () => {
    const started = line({
      action: 'impersonate.start',
      actingAsUserId: 9,
      people: { 9: 'Jordan Diaz' },
      after: { until: '2026-12-06T23:34:56.372Z' },
    });
    expect(auditActionText(started, reader('en'))).toBe('Started acting as Jordan Diaz');
    expect(auditActionText(started, reader('fr-CA'))).toBe(
      'Début de l’action au nom de Jordan Diaz',
    );
    const [until] = auditChanges(started.after, started, reader('en'));
    expect({ ...until, value: plain(until!.value) }).toEqual({
      field: 'until',
      label: 'Until',
      value: 'Dec 6, 2026, 6:34 PM EST',
    });
    const granted = line({
      action: 'role.grant',
      before: { roles: '' },
      after: { roles: 'bookstore_manager, support' },
    });
    expect(auditChanges(granted.before, granted, reader('en'))[0]!.value).toBe('(none)');
    expect(auditChanges(granted.after, granted, reader('en'))[0]!.value).toBe(
      'Bookstore manager and Support',
    );
    expect(auditChanges(granted.after, granted, reader('fr-CA'))[0]!.value).toBe(
      'Gestionnaire de librairie et Soutien',
    );
  });

  it('a code or field without wording yet reads in a generic form, never a crash', () => {
    const future = line({
      action: 'voucher.issue',
      before: { voucherCode: 'ABC', isSpecial: true, expiresAt: '2027-01-01T05:00:00.000Z' },
      after: { voucherCode: null, role: 'dean', courseFeeCents: 'n/a' },
    });
    expect(auditActionText(future, reader('en'))).toBe('Change: Voucher issue');
    expect(auditActionText(future, reader('fr-CA'))).toBe('Modification : Voucher issue');
    expect(
      auditChanges(future.before, future, reader('en')).map((c) => ({
        ...c,
        value: plain(c.value),
      })),
    ).toEqual([
      { field: 'voucherCode', label: 'Voucher code', value: 'ABC' },
      { field: 'isSpecial', label: 'Is special', value: 'Yes' },
      { field: 'expiresAt', label: 'Expires at', value: 'Jan 1, 2027, 12:00 AM EST' },
    ]);
    expect(auditChanges(future.after, future, reader('en')).map((c) => c.value)).toEqual([
      '(none)',
      'dean',
      'n/a',
    ]);
    const badZone = line({
      after: { timeZone: 'Mars/Olympus', addDropAt: '2027-01-31T04:59:00.000Z' },
    });
    expect(plain(auditChanges(badZone.after, badZone, reader('en'))[1]!.value)).toBe(
      'Jan 30, 2027, 11:59 PM EST',
    );
    expect(humanized('dropPeriodEndsAt')).toBe('Drop period ends at');
  });
});
