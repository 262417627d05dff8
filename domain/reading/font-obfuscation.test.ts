import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADOBE_OBFUSCATION, deobfuscateFont, IDPF_OBFUSCATION } from './font-obfuscation.ts';

// Issue 16, the publisher's styling: an EPUB's embedded fonts are often obfuscated (EPUB 3
// Open Container Format §4 "Font obfuscation"; Adobe's older scheme). The reader restores them.

const font = Buffer.from(Array.from({ length: 1100 }, (_, i) => (i * 31 + 5) % 256));

describe('deobfuscateFont', () => {
  it('IDPF: the first 1040 bytes XOR the SHA-1 of the unique identifier, its whitespace removed', () => {
    const key = createHash('sha1').update('urn:isbn:9798900000017').digest();
    const stored = Buffer.from(font);
    for (let i = 0; i < 1040; i += 1) stored[i] = stored[i]! ^ key[i % 20]!;
    expect(deobfuscateFont(stored, IDPF_OBFUSCATION, ' urn:isbn:979 8900000017\n\t')).toEqual(font);
    // Byte 1040 onwards was never touched; a wrong identifier gives no font.
    expect(deobfuscateFont(stored, IDPF_OBFUSCATION, 'urn:isbn:9798900000024')).not.toEqual(font);
  });

  it('Adobe: the first 1024 bytes XOR the 16 bytes of the urn:uuid identifier', () => {
    const key = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    const stored = Buffer.from(font);
    for (let i = 0; i < 1024; i += 1) stored[i] = stored[i]! ^ key[i % 16]!;
    expect(
      deobfuscateFont(stored, ADOBE_OBFUSCATION, 'urn:uuid:00112233-4455-6677-8899-AABBCCDDEEFF'),
    ).toEqual(font);
    // An identifier that is no UUID keys nothing.
    expect(deobfuscateFont(stored, ADOBE_OBFUSCATION, 'urn:isbn:9798900000017')).toBeNull();
  });

  it('any other algorithm is encryption: no font, and none without an identifier', () => {
    expect(deobfuscateFont(font, 'http://www.w3.org/2001/04/xmlenc#aes128-cbc', 'x')).toBeNull();
    expect(deobfuscateFont(font, IDPF_OBFUSCATION, null)).toBeNull();
  });
});
