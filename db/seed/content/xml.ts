// Shared by the SVG cover and EPUB builders: both emit XML, where a stray "&" or a control
// character from imported catalogue data makes the whole document unreadable, not just one line.

// XML 1.0 forbids most C0 controls, U+FFFE/U+FFFF and unpaired surrogates outright: escaping
// cannot represent them, so they are dropped. Iterating by code point keeps valid pairs intact.
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    cp >= 0x10000
  );
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Safe for both element content and attribute values. */
export function escapeXml(text: string): string {
  let clean = '';
  for (const ch of text) if (isXmlChar(ch.codePointAt(0) as number)) clean += ch;
  return clean.replace(/[&<>"']/g, (ch) => ENTITIES[ch] as string);
}
