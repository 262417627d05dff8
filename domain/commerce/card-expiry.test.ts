import { describe, expect, it } from 'vitest';
import { parseCardExpiry } from './card-expiry.ts';

describe('the card expiry as typed (checkout, spec 1 §4 Checkout)', () => {
  it('reads MM/YY and MM/YYYY, with or without the slash and spaces', () => {
    expect(parseCardExpiry('12/30')).toEqual({ month: 12, year: 30 });
    expect(parseCardExpiry(' 1 / 2030 ')).toEqual({ month: 1, year: 2030 });
    expect(parseCardExpiry('1230')).toEqual({ month: 12, year: 30 });
    expect(parseCardExpiry('12 30')).toEqual({ month: 12, year: 30 });
    expect(parseCardExpiry('122030')).toEqual({ month: 12, year: 2030 });
  });

  it('refuses what is no expiry', () => {
    for (const text of ['', '12', '123', '12/3', '12/203', 'ab/cd', '12-30', '1/2/30']) {
      expect(parseCardExpiry(text), text).toBeNull();
    }
  });
});
