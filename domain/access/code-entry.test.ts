import { describe, expect, it } from 'vitest';
import {
  canonicalCode,
  codeReadings,
  MAX_CODE_LENGTH,
  meantCode,
  typedCode,
} from './code-entry.ts';

describe('typedCode (spec 1 §5: a redeem code is trimmed and must be non-empty; issue 38: as people type it)', () => {
  it('spaces, lower case and missing or extra hyphens read as the same code', () => {
    const code = 'SHELFDEMO2026';
    for (const typed of [
      'SHELF-DEMO-2026',
      '  shelf-demo-2026\n',
      'shelf demo 2026',
      'SHELFDEMO2026',
      'SHELF--DEMO-2026-',
      'Shelf-Demo2026',
      'SHELF\u2013DEMO\u20142026',
      'ＳＨＥＬＦ－ＤＥＭＯ－２０２６',
    ]) {
      expect(typedCode(typed), typed).toBe(code);
    }
  });

  it('empty, or only spaces and hyphens, is "This field may not be null."', () => {
    for (const typed of [null, undefined, '', '   ', ' - - ']) {
      expect(() => typedCode(typed)).toThrowError(
        expect.objectContaining({ messageKey: 'redeem.error.empty', status: 400 }),
      );
    }
  });

  it('longer than any code is unknown; hyphens and spaces do not count toward the length', () => {
    expect(() => typedCode('A'.repeat(MAX_CODE_LENGTH + 1))).toThrowError(
      expect.objectContaining({ messageKey: 'redeem.error.unknown' }),
    );
    expect(typedCode(`${'A-'.repeat(MAX_CODE_LENGTH)}`)).toBe('A'.repeat(MAX_CODE_LENGTH));
  });

  it('keeps the letters O and I and the digits 0 and 1 as typed: which was meant is decided against the codes held', () => {
    expect(canonicalCode('o0-i1')).toBe('O0I1');
    expect(codeReadings('O1')).toEqual(['O1', '01', 'OI', '0I']);
  });
});

describe('meantCode (issue 38: O for 0 where unambiguous)', () => {
  const held = (...codes: string[]) => codes.map((code, record) => ({ code, record }));

  it('the code as typed wins over any look-alike', () => {
    expect(meantCode('AB0', held('ABO', 'AB0'))).toEqual({ kind: 'exact', code: 'AB0', record: 1 });
  });

  it('one held code that differs by O/0 or I/1 only is the one meant', () => {
    expect(meantCode('SHELFDEMO2O26', held('SHELFDEMO2026'))).toEqual({
      kind: 'lookalike',
      code: 'SHELFDEMO2026',
      record: 0,
    });
    expect(meantCode('SHELFDEM02026', held('SHELFDEMO2026')).kind).toBe('lookalike');
    expect(meantCode('ABCI', held('ABC1')).kind).toBe('lookalike');
  });

  it('two held codes that both read like it: neither is taken', () => {
    expect(meantCode('X20O', held('X200', 'X2OO'))).toEqual({
      kind: 'ambiguous',
      codes: ['X200', 'X2OO'],
    });
  });

  it('nothing held that reads like it, or a code that differs by more than look-alikes', () => {
    expect(meantCode('ABC', [])).toEqual({ kind: 'none' });
    expect(meantCode('ABCO', held('ABD0'))).toEqual({ kind: 'none' });
  });
});
