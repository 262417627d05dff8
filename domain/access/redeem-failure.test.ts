import { describe, expect, it } from 'vitest';
import {
  codeStanding,
  lookalikeCodes,
  lookalikeHint,
  MAX_LOOKALIKE_POSITIONS,
  redeemFailure,
} from './redeem-failure.ts';

const now = new Date('2026-11-27T12:00:00Z');

describe('redeemFailure (issue 19: unknown, used and expired codes get different messages)', () => {
  it('a code nobody holds is unknown', () => {
    expect(redeemFailure(null, now)).toEqual({
      reason: 'unknown',
      messageKey: 'redeem.error.unknown',
    });
  });

  it('a redeemed code is used, whoever redeemed it and even when it has expired since', () => {
    expect(redeemFailure({ redeemedAt: new Date('2026-01-01'), expiresAt: null }, now)).toEqual({
      reason: 'used',
      messageKey: 'redeem.error.used',
    });
    expect(
      redeemFailure({ redeemedAt: new Date('2026-01-01'), expiresAt: new Date('2026-02-01') }, now)
        .messageKey,
    ).toBe('redeem.error.used');
  });

  it('a code past its expiry is expired, from its expiry instant on', () => {
    expect(redeemFailure({ redeemedAt: null, expiresAt: now }, now)).toEqual({
      reason: 'expired',
      messageKey: 'redeem.error.expired',
    });
    expect(
      redeemFailure({ redeemedAt: null, expiresAt: new Date(now.getTime() + 1) }, now).messageKey,
    ).toBe('redeem.error.unknown');
  });

  it('issue 19: an unknown code that is a real one with O for 0 hints at the digit 0', () => {
    expect(
      redeemFailure(null, now, { typed: 'SHELF-DEMO-2O26', existing: 'SHELF-DEMO-2026' }),
    ).toEqual({ reason: 'unknown', messageKey: 'redeem.error.unknown.digitZero' });
    expect(redeemFailure(null, now, { typed: 'ABC-I234', existing: 'ABC-1234' }).messageKey).toBe(
      'redeem.error.unknown.digitOne',
    );
    expect(
      redeemFailure(null, now, { typed: 'SHELF-DEM0-2026', existing: 'SHELF-DEMO-2026' })
        .messageKey,
    ).toBe('redeem.error.unknown.letterO');
    expect(redeemFailure(null, now, { typed: '1NK-42', existing: 'INK-42' }).messageKey).toBe(
      'redeem.error.unknown.letterI',
    );
  });

  it('a look-alike that is no O/0 or I/1 confusion gives no hint', () => {
    expect(
      redeemFailure(null, now, { typed: 'SHELF-DEMO-2027', existing: 'SHELF-DEMO-2026' })
        .messageKey,
    ).toBe('redeem.error.unknown');
  });
});

describe('codeStanding (what the redeem form and the Claim Code Checker say of a code)', () => {
  it('redeemed once redeemed, even past its end; expired from its end instant on; else unused', () => {
    const day = (iso: string) => new Date(iso);
    expect(codeStanding({ redeemedAt: day('2026-01-01'), expiresAt: null }, now)).toBe('redeemed');
    expect(codeStanding({ redeemedAt: day('2026-01-01'), expiresAt: day('2026-02-01') }, now)).toBe(
      'redeemed',
    );
    expect(codeStanding({ redeemedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(codeStanding({ redeemedAt: null, expiresAt: new Date(now.getTime() + 1) }, now)).toBe(
      'unused',
    );
    expect(codeStanding({ redeemedAt: null, expiresAt: null }, now)).toBe('unused');
  });
});

describe('lookalikeCodes (issue 19: the codes a typed one may have meant)', () => {
  it('reads each O, 0, I and 1 as its look-alike, in every combination, the typed code excluded', () => {
    expect(lookalikeCodes('O1').sort()).toEqual(['0I', '01', 'OI'].sort());
    expect(lookalikeCodes('SHELF-DEMO-2026')).toContain('SHELF-DEMO-2O26');
    expect(lookalikeCodes('SHELF-DEMO-2O26')).toContain('SHELF-DEMO-2026');
    expect(lookalikeCodes('SHELF-DEMO-2026')).not.toContain('SHELF-DEMO-2026');
  });

  it('none without look-alikes, or with too many of them to be a typo', () => {
    expect(lookalikeCodes('ABC-2345')).toEqual([]);
    expect(lookalikeCodes('0'.repeat(MAX_LOOKALIKE_POSITIONS))).toHaveLength(
      2 ** MAX_LOOKALIKE_POSITIONS - 1,
    );
    expect(lookalikeCodes('0'.repeat(MAX_LOOKALIKE_POSITIONS + 1))).toEqual([]);
  });

  it('lookalikeHint names what the real code has at the first confused place', () => {
    expect(lookalikeHint('O0', '0O')).toBe('digitZero');
    expect(lookalikeHint('AB', 'AB')).toBeNull();
    expect(lookalikeHint('ABC', 'AB')).toBeNull();
    // A look-alike beside a real difference is another code, not a typo of this one.
    expect(lookalikeHint('OAB', '0XB')).toBeNull();
    expect(lookalikeHint('AXO', 'AY0')).toBeNull();
  });
});
