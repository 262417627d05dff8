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

// Issue 37: what mutation testing found untested in this rule, each a wrong password policy
// nobody would have noticed.
describe('password policy, at its edges (issue 37)', () => {
  it('ten characters are enough and nine are not; 128 are allowed and 129 are not', () => {
    expect(check('kayak-lamp')).toBeNull();
    expect(check('kayak-lam')).toBe('tooShort');
    const words = 'violet kettle harbour orange bicycle tuesday lantern orchard velvet ';
    const long = words.repeat(3).slice(0, 128);
    expect([...long]).toHaveLength(128);
    expect(check(long)).toBeNull();
    expect(check(`${long}x`)).toBe('tooLong');
  });

  it('counts characters as people see them, not as UTF-16 units', () => {
    // Nine letters and a symbol outside the Basic Multilingual Plane: ten characters.
    expect(check('kayaklamp😀')).toBeNull();
    expect(check('kayaklam😀')).toBe('tooShort');
    expect(check(`${'ö'.repeat(64)}${'ü'.repeat(64)}`)).toBeNull();
  });

  it('refuses a name part of four letters or more found in the password, not of three', () => {
    expect(check('ana-piano-violet', 'ana@example.test')).toBeNull();
    expect(check('anna-piano-violet', 'anna@example.test')).toBe('likeEmail');
    // The whole address, even when its name part is short.
    expect(check('ab@example.test', 'ab@example.test')).toBe('likeEmail');
    expect(check('ANNA-piano-violet', ' Anna@Example.test ')).toBe('likeEmail');
    // No address known: nothing to compare.
    expect(passwordProblem('anna-piano-violet', { common: COMMON_PASSWORDS })).toBeNull();
  });

  it('refuses a listed four-letter word with digits and symbols around it', () => {
    expect(COMMON_PASSWORDS.has('pass')).toBe(true);
    expect(check('2024pass!!!')).toBe('common');
    expect(check('2024passage!')).toBeNull();
  });

  it('the file’s own examples: repeats of one to four characters, not of five', () => {
    expect(check('abcabcabca')).toBe('common');
    expect(check('abcdabcdab')).toBe('common');
    expect(check('xyxyxyxyxy')).toBe('common');
    expect(check('abcdeabcde')).toBeNull();
  });

  it('a password of digits and symbols only: refused when a run or a repeat, taken otherwise', () => {
    expect(check('4839201756')).toBeNull();
    expect(check('1357913579')).toBeNull();
    expect(check('1111111111')).toBe('common');
    expect(check('1212121212')).toBe('common');
    expect(check('8901234567')).toBe('common');
    expect(check('6543210987')).toBe('common');
    expect(check('!"#$%&\'()*')).toBe('common');
    expect(check('13-57-91-35')).toBeNull();
  });
});

// Issue 37: what the first StrykerJS run left alive in this rule.
describe('password policy, as StrykerJS tried it (issue 37)', () => {
  it('a listed password is refused as it is, even when its core is not listed', () => {
    expect(COMMON_PASSWORDS.has('1q2w3e4r5t')).toBe(true);
    expect(check('1q2w3e4r5t')).toBe('common');
  });

  it('only digits and symbols at the ends come off, not those inside', () => {
    expect(check('pass-word2024')).toBeNull();
    expect(check('2024pass-word')).toBeNull();
  });

  it('letters in a row are not a run: runs count only among digits and symbols', () => {
    expect(check('bcdefghijk')).toBeNull();
  });
});
