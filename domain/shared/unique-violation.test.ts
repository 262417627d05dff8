import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './unique-violation.ts';

describe('a unique index refusing a write', () => {
  it('is read from the error or its cause, and nothing else counts', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ cause: { code: '23505' } })).toBe(true);
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation(new Error('x'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });

  it('names the index when asked: another unique index does not count', () => {
    const raced = { cause: { code: '23505', constraint: 'course_sections_org_code' } };
    expect(isUniqueViolation(raced, 'course_sections_org_code')).toBe(true);
    expect(isUniqueViolation(raced, 'course_sections_rs_course_id')).toBe(false);
    expect(isUniqueViolation({ code: '23503', constraint: 'x' }, 'x')).toBe(false);
  });
});
