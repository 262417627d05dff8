import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import { passwordProblem } from './password-policy.ts';

const check = (password: string, email = 'maya.okafor@example.test') =>
  passwordProblem(password, { common: COMMON_PASSWORDS, email });

describe('password policy (issue 20: length and a list of common passwords)', () => {
  it('ships the 10,000 most common passwords, loaded once', () => {
    expect(COMMON_PASSWORDS.size).toBe(10_000);
    expect(COMMON_PASSWORDS.has('password')).toBe(true);
  });

  it('asks for at least 10 characters, counted as people see them', () => {
    expect(check('Tr0ub4dor')).toBe('tooShort');
    expect(check('kayak-lamp')).toBeNull();
    expect(check('éléphant-é')).toBeNull();
  });

  it('bounds the length so that hashing stays cheap', () => {
    expect(check('a-b'.repeat(43))).toBe('tooLong');
    expect(check(`${'correct horse battery '.repeat(5)}x`.slice(0, 128))).toBeNull();
  });

  it('refuses a listed password, whatever its case', () => {
    expect(check('1234567890')).toBe('common');
    expect(check('BASKETBALL')).toBe('common');
  });

  it('refuses a listed password with digits or symbols around it', () => {
    expect(check('Password2024!')).toBe('common');
    expect(check('!!dragon1234')).toBe('common');
    expect(check('sunshine-99')).toBe('common');
  });

  it('refuses repeats and runs', () => {
    expect(check('aaaaaaaaaaaa')).toBe('common');
    expect(check('abcabcabcabc')).toBe('common');
    expect(check('9876543210')).toBe('common');
  });

  it('refuses the e-mail address or its name part', () => {
    expect(check('maya.okafor@example.test')).toBe('likeEmail');
    expect(check('maya.okafor-2026')).toBe('likeEmail');
  });

  it('accepts a few unrelated words', () => {
    expect(check('violet kettle harbour')).toBeNull();
    expect(check('Orange-Bicycle-Tuesday')).toBeNull();
  });
});
