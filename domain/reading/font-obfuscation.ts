import { createHash } from 'node:crypto';

// Embedded fonts as publishers ship them (issue 16, the publisher's styling). A font licence
// often requires that the file cannot be lifted out of the book, so EPUBs "obfuscate" their
// fonts and list them in META-INF/encryption.xml. Two schemes are in use, both a XOR of the
// file's first bytes with a key derived from the book's identifier, and both undone by every
// reading system:
// - IDPF (EPUB 3 §Font obfuscation, http://www.idpf.org/2008/embedding): the first 1040 bytes
//   with the SHA-1 of the package's unique identifier, its whitespace (U+0020, U+0009, U+000D,
//   U+000A) removed;
// - Adobe (http://ns.adobe.com/pdf/enc#RC): the first 1024 bytes with the 16 bytes of the
//   book's urn:uuid identifier.
// Anything else in encryption.xml is real encryption (DRM): such a file is not served at all.
// No maintained npm library does this (epub.js and Readium do it inside their readers), and it
// is a XOR of a known length: written here, tested against a font obfuscated by the same rules.

export const IDPF_OBFUSCATION = 'http://www.idpf.org/2008/embedding';
export const ADOBE_OBFUSCATION = 'http://ns.adobe.com/pdf/enc#RC';
/** The algorithms of encryption.xml that only obfuscate (a book with others is encrypted). */
export const FONT_OBFUSCATIONS: ReadonlySet<string> = new Set([
  IDPF_OBFUSCATION,
  ADOBE_OBFUSCATION,
]);

function xorHead(data: Buffer, key: Buffer, length: number): Buffer {
  const out = Buffer.from(data);
  const end = Math.min(length, out.length);
  for (let i = 0; i < end; i += 1) out[i] = out[i]! ^ key[i % key.length]!;
  return out;
}

function idpfKey(uniqueIdentifier: string): Buffer {
  return createHash('sha1')
    .update(uniqueIdentifier.replace(/[ \t\r\n]/g, ''), 'utf8')
    .digest();
}

function adobeKey(uniqueIdentifier: string): Buffer | null {
  const hex = uniqueIdentifier
    .trim()
    .replace(/^urn:uuid:/i, '')
    .replaceAll('-', '');
  return /^[0-9a-f]{32}$/i.test(hex) ? Buffer.from(hex, 'hex') : null;
}

/**
 * A font file as the publisher made it, from its bytes in the archive and the algorithm
 * encryption.xml names for it; null when the algorithm is not an obfuscation we undo (the
 * font is then encrypted, and unusable without the key) or the book has no identifier for it.
 * XOR is its own inverse: the same call obfuscates a font (the demo seed's books do).
 */
export function deobfuscateFont(
  data: Buffer,
  algorithm: string,
  uniqueIdentifier: string | null,
): Buffer | null {
  if (uniqueIdentifier === null) return null;
  if (algorithm === IDPF_OBFUSCATION) return xorHead(data, idpfKey(uniqueIdentifier), 1040);
  if (algorithm === ADOBE_OBFUSCATION) {
    const key = adobeKey(uniqueIdentifier);
    return key ? xorHead(data, key, 1024) : null;
  }
  return null;
}
