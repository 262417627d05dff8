import { describe, expect, it } from 'vitest';
import { idField } from './fields.ts';

describe('idField (an id in a form)', () => {
  it('reads decimal digits as the id', () => {
    expect(idField.parse('16')).toBe(16);
    expect(idField.parse('2147483647')).toBe(2_147_483_647);
  });

  it.each([
    ['0x10'],
    ['1e3'],
    ['1.0'],
    ['+1'],
    ['-1'],
    ['0'],
    ['01'],
    [' 1'],
    [''],
    ['2147483648'],
  ])('refuses %j with the invalid message, rather than reading another id', (raw) => {
    const parsed = idField.safeParse(raw);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('error.invalid');
  });

  it('refuses a field that is not text (a file, or missing)', () => {
    expect(idField.safeParse(undefined).success).toBe(false);
    expect(idField.safeParse(16).success).toBe(false);
  });
});
