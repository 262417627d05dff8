// The hostile values of issue 18, as each part of a request carries them: `url` percent-encoded
// for a path segment, a query or a form field (null when it cannot go there), `json` the raw
// bytes of a JSON value (null when it cannot). Raw bytes, because JSON.stringify never writes
// an escaped lone surrogate or invalid UTF-8, and those are exactly what a client may send.

export type Hostile = { name: string; url: string | null; json: Buffer | null };

const jsonText = (text: string): Buffer => Buffer.from(text, 'utf8');
const jsonString = (inner: readonly number[]): Buffer =>
  Buffer.concat([Buffer.from('"'), Buffer.from(inner), Buffer.from('"')]);

/** Text no person types: refused wherever text goes (server/request-text.ts), by the edge. */
export const BAD_TEXT: readonly Hostile[] = [
  { name: 'NUL', url: 'a%00b', json: jsonText('"a\\u0000b"') },
  { name: 'lone surrogate', url: '%ED%A0%80', json: jsonText('"\\ud800"') },
  { name: 'BEL', url: 'a%07', json: jsonText('"a\\u0007"') },
  { name: 'ESC', url: '%1B%5B2J', json: jsonText('"\\u001b[2J"') },
  { name: 'overlong NUL (invalid UTF-8)', url: '%C0%80', json: jsonString([0xc0, 0x80]) },
  { name: 'byte FF (invalid UTF-8)', url: '%FF', json: jsonString([0xff]) },
];

const LONG_TEXT = 'x'.repeat(100_000);

/** 100 kB: over every field's length and the API's body limit; a path this long is 414. */
export const LONG: readonly Hostile[] = [
  { name: '100 kB string', url: LONG_TEXT, json: jsonText(`"${LONG_TEXT}"`) },
];

/** Strings that look like ids and are not one (domain/shared/id.ts), as text. */
export const ID_STRINGS = [
  '0',
  '-1',
  '01',
  '0x10',
  '1e3',
  '1.5',
  '2147483648',
  '99999999999999999999',
  'abc',
] as const;

export const text = (value: string, name = JSON.stringify(value)): Hostile => ({
  name,
  url: encodeURIComponent(value),
  json: jsonText(JSON.stringify(value)),
});

export const BAD_IDS: readonly Hostile[] = ID_STRINGS.map((value) => text(value));

const jsonOnly = (raw: string, name: string): Hostile => ({ name, url: null, json: jsonText(raw) });

/** JSON numbers no id is: not positive, not whole, past PostgreSQL's integer. */
export const BAD_ID_NUMBERS: readonly Hostile[] = [
  jsonOnly('0', 'number 0'),
  jsonOnly('-1', 'number -1'),
  jsonOnly('1.5', 'number 1.5'),
  jsonOnly('2147483648', 'number 2147483648'),
  jsonOnly('99999999999999999999', 'number 99999999999999999999'),
];

export const numbers = (...values: string[]): Hostile[] =>
  values.map((raw) => jsonOnly(raw, `number ${raw}`));

/** Another JSON type where a string is expected. */
export function notStrings(nullable: boolean): Hostile[] {
  return [
    jsonOnly('42', 'number where a string is expected'),
    jsonOnly('{"a":1}', 'object'),
    jsonOnly('["a"]', 'array'),
    jsonOnly('true', 'true'),
    ...(nullable ? [] : [jsonOnly('null', 'null')]),
  ];
}

/** Another JSON type where a number is expected. */
export function notNumbers(nullable: boolean): Hostile[] {
  return [
    jsonOnly('"1"', 'string where a number is expected'),
    jsonOnly('{"a":1}', 'object'),
    jsonOnly('[1]', 'array'),
    jsonOnly('true', 'true'),
    ...(nullable ? [] : [jsonOnly('null', 'null')]),
  ];
}

/** Another user's id, in the field's own encoding. */
export function othersId(value: string | number, name = `another user's ${value}`): Hostile {
  return {
    name,
    url: encodeURIComponent(String(value)),
    json: jsonText(JSON.stringify(value)),
  };
}
