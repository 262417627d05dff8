import { describe, expect, it } from 'vitest';
import { courseCodeLabel } from './course-code.ts';

describe('courseCodeLabel', () => {
  it('issue 39: a roster course shows the code the campus wrote, byte for byte', () => {
    for (const code of ['CHM-210', 'ÉCO-1001', '化学101', 'BIO  101 ', 'Cafe\u0301 12']) {
      expect(courseCodeLabel({ department: 'X', number: '1', code })).toBe(code);
    }
  });

  it('a course made here shows its department and number', () => {
    expect(courseCodeLabel({ department: 'BIO', number: '101', code: null })).toBe('BIO 101');
    expect(courseCodeLabel({ department: 'BIO', number: '101' })).toBe('BIO 101');
    expect(courseCodeLabel({ department: '', number: '4711' })).toBe('4711');
  });
});
