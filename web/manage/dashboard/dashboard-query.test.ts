import { describe, expect, it } from 'vitest';
import { COURSE_TYPES } from '#domain/courses/section-rules.ts';
import { dashboardQuery } from './dashboard-query.ts';

const query = (search: string) =>
  dashboardQuery(new URL(`http://x/manage/inclusive-dashboard${search}`));

describe('the term dashboard URL (issue 39: filters as a shareable GET form)', () => {
  it('reads the organisation, term, department and course type', () => {
    expect(query('?org=3&term=12&department=BIO&courseType=cds')).toEqual({
      orgId: 3,
      termId: 12,
      department: 'BIO',
      courseType: 'cds',
    });
    expect(query('?department=&courseType=')).toEqual({
      orgId: null,
      termId: null,
      department: null,
      courseType: null,
    });
  });

  it('accepts every course type Course Manager gives a course, course fee too (migration 0039)', () => {
    for (const type of COURSE_TYPES)
      expect(query(`?courseType=${type}`)).toMatchObject({ courseType: type });
    expect(query('?courseType=course_fee')).toMatchObject({ courseType: 'course_fee' });
  });

  it('ignores a malformed id, as every query does (domain/shared/id.ts)', () => {
    expect(query('?org=0x10&term=1e3')).toMatchObject({ orgId: null, termId: null });
  });

  it('refuses what no form sends: another course type, control characters, a huge text, a repeated field', () => {
    expect(query('?courseType=everything')).toBeNull();
    expect(query('?department=BIO%00')).toBeNull();
    expect(query(`?department=${'A'.repeat(101)}`)).toBeNull();
    expect(query('?department=BIO&department=CHEM')).toBeNull();
  });
});
