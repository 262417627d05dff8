import { describe, expect, it } from 'vitest';
import { idParam, idValue } from './id-param.ts';

describe('idParam (an id in a path or query)', () => {
  it('reads decimal digits as the id', () => {
    expect(idParam.parse('16')).toBe(16);
  });

  it.each([
    ['0x10'],
    ['1e3'],
    ['1.0'],
    ['+1'],
    ['01'],
    ['2147483648'],
    ['１'],
  ])('refuses %j rather than reading another id', (raw) => {
    expect(idParam.safeParse(raw).success).toBe(false);
  });
});

describe('idValue (an id in a JSON body)', () => {
  it('takes a positive integer up to 2147483647 only', () => {
    expect(idValue.safeParse(16).success).toBe(true);
    for (const value of [0, -1, 1.5, 2_147_483_648, '16']) {
      expect(idValue.safeParse(value).success).toBe(false);
    }
  });
});
