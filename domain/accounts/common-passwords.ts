import list from './common-passwords.txt?raw';

// Issue 20: the 10,000 most common passwords (SecLists, MIT licence, lower-cased), read once
// when this module loads; the build carries the file inside the server bundle.
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  list.split('\n').filter((line) => line.length > 0),
);
