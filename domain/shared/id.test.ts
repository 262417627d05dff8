import { describe, expect, it } from 'vitest';
import { MAX_ID, parseId } from './id.ts';

describe('parseId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', MAX_ID],
  ])('reads %j as the id %i', (raw, id) => {
    expect(parseId(raw)).toBe(id);
  });

  it.each([
    ['0'],
    ['01'],
    ['-1'],
    ['+1'],
    ['1e3'],
    ['0x10'],
    ['0b1'],
    ['1.0'],
    ['1.5'],
    [' 1'],
    ['1 '],
    ['1\n'],
    ['2147483648'],
    ['99999999999'],
    [''],
    ['１'],
    ['1\u0000'],
    ['Infinity'],
  ])('refuses %j: an id is decimal digits only, at most 2147483647', (raw) => {
    expect(parseId(raw)).toBeNull();
  });

  it.each([
    [null],
    [undefined],
    [16],
    [['1']],
  ])('refuses a value that is not a string: %j', (raw) => {
    expect(parseId(raw)).toBeNull();
  });
});
