// Issue 20: what a new password must be. Long enough to resist guessing, short enough to keep
// argon2id's work bounded, and not one of the passwords every attacker tries first — nor
// such a password with a year or a few digits and symbols added ('Password2024!').
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'common' | 'likeEmail';

/** Why this password may not be chosen, or null when it may. */
export function passwordProblem(
  password: string,
  context: { common: ReadonlySet<string>; email?: string | null },
): PasswordProblem | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return 'tooShort';
  if (length > MAX_PASSWORD_LENGTH) return 'tooLong';
  const lower = password.normalize('NFKC').toLowerCase();
  const email = context.email?.trim().toLowerCase() ?? '';
  const local = email.split('@')[0] ?? '';
  if (email && (lower === email || (local.length >= 4 && lower.includes(local)))) {
    return 'likeEmail';
  }
  if (isCommon(lower, context.common)) return 'common';
  return null;
}

function isCommon(lower: string, common: ReadonlySet<string>): boolean {
  if (common.has(lower)) return true;
  // A common word with digits or symbols before or after it.
  const core = lower.replace(/^[\d\W_]+/, '').replace(/[\d\W_]+$/, '');
  if (common.has(core)) return true;
  if (core.length === 0) {
    // Nothing but digits and symbols: a run or a repeat ('1234567890', '0000000000').
    return isRepeat(lower) || isRun(lower);
  }
  return isRepeat(lower);
}

/** One short piece said over and over ('abcabcabca', 'aaaaaaaaaa'). */
function isRepeat(text: string): boolean {
  const characters = [...text];
  for (let size = 1; size <= 4; size += 1) {
    if (characters.every((character, at) => character === characters[at % size])) return true;
  }
  return false;
}

/** Consecutive characters up or down ('1234567890', '9876543210'). */
function isRun(text: string): boolean {
  const codes = [...text].map((c) => c.codePointAt(0)!);
  const steps = new Set(codes.slice(1).map((code, i) => (code - codes[i]! + 10) % 10));
  return steps.size === 1 && (steps.has(1) || steps.has(9));
}

/** The message that explains a problem, in the catalogs. */
export function passwordProblemMessage(problem: PasswordProblem): string {
  return `password.error.${problem}`;
}
