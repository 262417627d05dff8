import { describe, expect, it } from 'vitest';
import { isCleanEncodedText, isCleanJson, isCleanText } from './request-text.ts';

const encoded = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

describe('issue 18: text a request may carry', () => {
  it.each([
    ['plain words', 'Cell Biology'],
    ['accents and non-Latin scripts', 'Éléments de chimie — 化学 🧪'],
    ['a text area: tab, line feed, carriage return', 'line one\r\n\tline two'],
    ['an empty string', ''],
  ])('accepts %s', (_name, text) => {
    expect(isCleanText(text)).toBe(true);
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['a C0 control', 'bell\u0007'],
    ['escape', '\u001b[31m'],
    ['DEL', 'x\u007f'],
    ['a C1 control', 'x\u0085'],
    ['an unpaired high surrogate', 'x\ud800'],
    ['an unpaired low surrogate', '\udc00x'],
  ])('refuses %s', (_name, text) => {
    expect(isCleanText(text)).toBe(false);
  });

  it('reads percent-encoded targets and form bodies as UTF-8 after decoding', () => {
    expect(isCleanEncodedText(encoded('/search?terms=cell+biology&page=2'))).toBe(true);
    expect(isCleanEncodedText(encoded('/search?terms=%C3%A9l%C3%A9ments'))).toBe(true);
    expect(isCleanEncodedText(encoded('feedback=a%0D%0Ab%09c'))).toBe(true);
    expect(isCleanEncodedText(encoded('/search?terms=%00'))).toBe(false);
    expect(isCleanEncodedText(encoded('/search?terms=%1B'))).toBe(false);
    // Invalid UTF-8: a lone continuation byte, an overlong NUL, a CESU-8 surrogate.
    expect(isCleanEncodedText(encoded('/search?terms=%80'))).toBe(false);
    expect(isCleanEncodedText(encoded('/search?terms=%C0%80'))).toBe(false);
    expect(isCleanEncodedText(encoded('/search?terms=%ED%A0%80'))).toBe(false);
    // A % that is not an escape is malformed.
    expect(isCleanEncodedText(encoded('/search?terms=100%'))).toBe(false);
    expect(isCleanEncodedText(encoded('/search?terms=%zz'))).toBe(false);
    // Raw bytes above 0x7F must be UTF-8 too.
    expect(isCleanEncodedText(new Uint8Array([0x61, 0xc3, 0xa9]))).toBe(true);
    expect(isCleanEncodedText(new Uint8Array([0x61, 0xff]))).toBe(false);
  });

  it('checks every string of a JSON document, keys included', () => {
    expect(isCleanJson({ data: { type: 'Member', attributes: { message: 'ok\n' } } })).toBe(true);
    expect(isCleanJson(JSON.parse('{"code":"AB\\u0000"}'))).toBe(false);
    expect(isCleanJson(JSON.parse('{"code":["x","\\ud800"]}'))).toBe(false);
    expect(isCleanJson(JSON.parse('{"\\u0007":1}'))).toBe(false);
    expect(isCleanJson([1, true, null, 2.5])).toBe(true);
  });
});
