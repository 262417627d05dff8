// Text a request may carry (issue 18): every string that reaches a page, form or API call is
// well-formed Unicode without control characters. PostgreSQL refuses NUL in text (a 500 when it
// got there), and an unpaired surrogate or a C0/C1 control character is never something a person
// typed. Tab, line feed and carriage return stay allowed: a text area sends them.

// C0 controls except TAB, LF, CR; DEL; C1 controls. Matching control characters is the point.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters this rule refuses
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A string a person could have typed: well-formed (no lone surrogate) and no control character. */
export function isCleanText(text: string): boolean {
  return text.isWellFormed() && !CONTROL.test(text);
}

/** UTF-8 bytes decoded, or null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return null;
  }
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * Percent-encoded text (a request target, or an application/x-www-form-urlencoded body) read as
 * it will be decoded: every %XX is a byte, the bytes must be UTF-8, and the text clean. A `%`
 * not followed by two hex digits is malformed. Raw bytes above 0x7F must be UTF-8 too.
 */
export function isCleanEncodedText(encoded: Uint8Array): boolean {
  // Plain printable ASCII with no escape is the common case: nothing to decode.
  let plain = true;
  for (const byte of encoded) {
    if (byte < 0x20 || byte >= 0x7f || byte === 0x25) {
      if (byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
      plain = false;
      break;
    }
  }
  if (plain) return true;
  const bytes = new Uint8Array(encoded.length);
  let length = 0;
  for (let i = 0; i < encoded.length; i += 1) {
    const byte = encoded[i]!;
    if (byte === 0x25) {
      const hex = String.fromCharCode(encoded[i + 1] ?? 0, encoded[i + 2] ?? 0);
      if (!HEX.test(hex)) return false;
      bytes[length] = Number.parseInt(hex, 16);
      length += 1;
      i += 2;
    } else {
      bytes[length] = byte;
      length += 1;
    }
  }
  const text = decodeUtf8(bytes.subarray(0, length));
  return text !== null && isCleanText(text);
}

/** Every string in a parsed JSON value (keys included) is clean. */
export function isCleanJson(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === 'string') return isCleanText(value);
  if (Array.isArray(value)) return value.every((item) => isCleanJson(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.entries(value).every(
      ([key, item]) => isCleanText(key) && isCleanJson(item, depth + 1),
    );
  }
  return true;
}
