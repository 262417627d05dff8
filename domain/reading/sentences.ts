// Sentences of a chapter's text, for reading aloud (issue 16): each with where it starts and
// ends in the text, so the sentence being spoken can be shown and followed across pages. The
// language's own rules (Intl.Segmenter, e.g. French's space before '?'); where a runtime has
// no segmenter, a full stop, question or exclamation mark followed by a space.

export type Sentence = { start: number; end: number; text: string };

/** The longest piece spoken at once: some voices stop after about 15 seconds of speech. */
export const SENTENCE_MAX_CHARACTERS = 300;

function split(text: string, lang: string | undefined): { index: number; segment: string }[] {
  if (typeof Intl !== 'undefined' && 'Segmenter' in Intl) {
    let segmenter: Intl.Segmenter;
    try {
      segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
    } catch {
      segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
    }
    return [...segmenter.segment(text)].map(({ index, segment }) => ({ index, segment }));
  }
  const out: { index: number; segment: string }[] = [];
  const pattern = /[^.!?]*[.!?]+(\s+|$)|[^.!?]+$/g;
  for (const match of text.matchAll(pattern)) {
    if (match[0]) out.push({ index: match.index, segment: match[0] });
  }
  return out;
}

/**
 * The sentences of `text` from `from` on (the sentence `from` falls in first), without the
 * space around them; one longer than SENTENCE_MAX_CHARACTERS is cut at spaces.
 */
export function sentencesOf(text: string, lang: string | undefined, from = 0): Sentence[] {
  const out: Sentence[] = [];
  for (const { index, segment } of split(text, lang)) {
    if (index + segment.length <= from) continue;
    const lead = segment.length - segment.trimStart().length;
    const body = segment.trim();
    if (!body) continue;
    let start = index + lead;
    let rest = body;
    while (rest.length > SENTENCE_MAX_CHARACTERS) {
      const cut = rest.lastIndexOf(' ', SENTENCE_MAX_CHARACTERS);
      const at = cut > 0 ? cut : SENTENCE_MAX_CHARACTERS;
      out.push({ start, end: start + at, text: rest.slice(0, at) });
      const skipped = rest.slice(at).length - rest.slice(at).trimStart().length;
      start += at + skipped;
      rest = rest.slice(at).trimStart();
    }
    if (rest) out.push({ start, end: start + rest.length, text: rest });
  }
  return out;
}
