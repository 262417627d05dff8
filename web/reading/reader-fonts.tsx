import italic from '@fontsource/opendyslexic/files/opendyslexic-latin-400-italic.woff2?url';
import regular from '@fontsource/opendyslexic/files/opendyslexic-latin-400-normal.woff2?url';
import boldItalic from '@fontsource/opendyslexic/files/opendyslexic-latin-700-italic.woff2?url';
import bold from '@fontsource/opendyslexic/files/opendyslexic-latin-700-normal.woff2?url';

// The dyslexia-friendly font of the reading settings (issue 16): OpenDyslexic (SIL Open Font
// License 1.1, @fontsource/opendyslexic), served from our origin with the reader's code. A
// browser downloads a face only when text is shown in it, so nobody else pays for it.
const FACES = (
  [
    [regular, 'normal', 400],
    [italic, 'italic', 400],
    [bold, 'normal', 700],
    [boldItalic, 'italic', 700],
  ] as const
)
  .map(
    ([url, style, weight]) =>
      `@font-face{font-family:"OpenDyslexic";font-style:${style};font-weight:${weight};font-display:swap;src:url(${url}) format("woff2")}`,
  )
  .join('');

export function ReaderFonts() {
  return <style>{FACES}</style>;
}
