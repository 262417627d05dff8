import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, recoveryCodeDigest } from './recovery-codes.ts';
import { checkTotp, groupedSecret, newTotpSecret, totpUri } from './totp.ts';

const at = (iso: string) => new Date(iso);
const codeAt = (secret: string, when: Date) =>
  generate({ secret, epoch: Math.floor(when.getTime() / 1000) });

describe('TOTP codes', () => {
  const secret = newTotpSecret();
  const now = at('2026-11-27T12:00:10Z');

  it('issue 20: the current code and the codes one step early or late are accepted', async () => {
    for (const offset of [-30_000, 0, 30_000]) {
      const code = await codeAt(secret, new Date(now.getTime() + offset));
      expect((await checkTotp({ secret, code, now, lastUsedStep: null })).ok).toBe(true);
    }
  });

  it('issue 20: a code two steps away is refused', async () => {
    const code = await codeAt(secret, new Date(now.getTime() - 60_000));
    expect(await checkTotp({ secret, code, now, lastUsedStep: null })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('issue 20: a used code cannot be replayed, nor an earlier one', async () => {
    const code = await codeAt(secret, now);
    const first = await checkTotp({ secret, code, now, lastUsedStep: null });
    expect(first.ok).toBe(true);
    const step = first.ok ? first.step : 0;
    expect(await checkTotp({ secret, code, now, lastUsedStep: step })).toEqual({
      ok: false,
      reason: 'replayed',
    });
    const earlier = await codeAt(secret, new Date(now.getTime() - 30_000));
    expect((await checkTotp({ secret, code: earlier, now, lastUsedStep: step })).ok).toBe(false);
    const later = await codeAt(secret, new Date(now.getTime() + 30_000));
    expect((await checkTotp({ secret, code: later, now, lastUsedStep: step })).ok).toBe(true);
  });

  // Issue 37: mutation testing found the step untested: with it computed wrongly, a code seen
  // over someone's shoulder worked again 30 seconds later.
  it('issue 37: each code counts as its own time step, so it is refused again a step later', async () => {
    const step = Math.floor(now.getTime() / 1000 / 30);
    for (const [offset, expected] of [
      [-30_000, step - 1],
      [0, step],
      [30_000, step + 1],
    ] as const) {
      const code = await codeAt(secret, new Date(now.getTime() + offset));
      expect(await checkTotp({ secret, code, now, lastUsedStep: null })).toEqual({
        ok: true,
        step: expected,
      });
    }
    const code = await codeAt(secret, now);
    const used = await checkTotp({ secret, code, now, lastUsedStep: null });
    const thirtyLater = new Date(now.getTime() + 30_000);
    expect(
      await checkTotp({ secret, code, now: thirtyLater, lastUsedStep: used.ok ? used.step : 0 }),
    ).toEqual({ ok: false, reason: 'replayed' });
    // The next step's own code is taken then, once.
    const next = await codeAt(secret, thirtyLater);
    expect(await checkTotp({ secret, code: next, now: thirtyLater, lastUsedStep: step })).toEqual({
      ok: true,
      step: step + 1,
    });
  });

  it('issue 37: only six digits are a code', async () => {
    const code = await codeAt(secret, now);
    for (const typed of [`${code}0`, code.slice(1), ` ${code}`, `${code.slice(0, 5)}a`, '']) {
      expect(await checkTotp({ secret, code: typed, now, lastUsedStep: null })).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('issue 20: the secret is shown in groups of four and in an otpauth address', () => {
    expect(groupedSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(groupedSecret('')).toBe('');
    expect(totpUri({ issuer: 'Shelfmark', account: 'a@b.test', secret: 'ABCD' })).toMatch(
      /^otpauth:\/\/totp\/Shelfmark:a%40b\.test\?secret=ABCD&issuer=Shelfmark/,
    );
  });
});

describe('recovery codes', () => {
  it('issue 20: ten different codes, each matched however it is typed', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const code = codes[0]!;
    expect(recoveryCodeDigest(code.toUpperCase().replace('-', ' '))).toBe(recoveryCodeDigest(code));
    expect(recoveryCodeDigest(codes[1]!)).not.toBe(recoveryCodeDigest(code));
  });
});
