// Generated covers for seed products, so the catalogue looks like a bookstore without shipping
// copyrighted cover art. Self-contained on purpose: no external images or web fonts, so the
// SVG renders the same inline, as an <img>, and when rasterised by tooling.

import { COVER_SVG_WIDTH } from '#domain/catalog/cover-image.ts';
import { createRandom } from './random.ts';
import { escapeXml } from './xml.ts';

/**
 * Goes up by one whenever a change here changes what a cover looks like: cover addresses carry
 * it (domain/catalog/cover-version.ts), and browsers keep a cover for a year.
 */
export const GENERATED_COVER_STYLE = 1;

export type CoverInput = {
  title: string;
  author: string;
  /** Product type such as "courseware" or "physical_product"; shown as a small label. */
  type: string;
  seed: number;
};

const WIDTH = COVER_SVG_WIDTH;
const HEIGHT = 600;
const MARGIN = 36;
const TITLE_TOP = 150;
const TITLE_BOTTOM = 470;
// Average advance width of a bold serif glyph relative to its font size. An estimate is enough
// because lines get a safety margin; we cannot measure text without a font engine.
const GLYPH_WIDTH_EM = 0.64;

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + h / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** Greedy word wrap; words longer than a line are split so nothing overflows the cover. */
export function wrapText(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let current = '';
  // Code points, not UTF-16 units, so a split never lands inside a surrogate pair.
  const length = (s: string): number => [...s].length;
  for (const rawWord of text.split(/\s+/).filter(Boolean)) {
    let word = rawWord;
    while (length(word) > maxChars) {
      if (current) {
        lines.push(current);
        current = '';
      }
      const chars = [...word];
      lines.push(`${chars.slice(0, maxChars - 1).join('')}-`);
      word = chars.slice(maxChars - 1).join('');
    }
    if (!current) current = word;
    else if (length(current) + 1 + length(word) <= maxChars) current += ` ${word}`;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  return lines;
}

function charsPerLine(fontSize: number): number {
  return Math.floor((WIDTH - 2 * MARGIN) / (fontSize * GLYPH_WIDTH_EM));
}

function fitTitle(title: string): { lines: string[]; fontSize: number } {
  for (const fontSize of [46, 40, 34, 29, 25]) {
    const lines = wrapText(title, charsPerLine(fontSize));
    if (lines.length * fontSize * 1.18 <= TITLE_BOTTOM - TITLE_TOP) return { lines, fontSize };
  }
  const fontSize = 25;
  const maxLines = Math.floor((TITLE_BOTTOM - TITLE_TOP) / (fontSize * 1.18));
  const lines = wrapText(title, charsPerLine(fontSize)).slice(0, maxLines);
  lines[lines.length - 1] = `${(lines[lines.length - 1] ?? '').replace(/[\s\p{P}]*$/u, '')}…`;
  return { lines, fontSize };
}

function motif(rand: ReturnType<typeof createRandom>): string {
  const kind = rand.int(0, 2);
  if (kind === 0) {
    const cx = rand.int(0, WIDTH);
    const cy = rand.int(0, HEIGHT);
    return Array.from({ length: 5 }, (_, i) => {
      const r = 60 + i * rand.int(38, 60);
      return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#ffffff" stroke-opacity="0.10" stroke-width="${rand.int(2, 10)}"/>`;
    }).join('');
  }
  if (kind === 1) {
    const gap = rand.int(26, 44);
    const stripes: string[] = [];
    for (let x = -HEIGHT; x < WIDTH; x += gap) {
      stripes.push(`<line x1="${x}" y1="${HEIGHT}" x2="${x + HEIGHT}" y2="0"/>`);
    }
    return `<g stroke="#ffffff" stroke-opacity="0.07" stroke-width="${rand.int(4, 12)}">${stripes.join('')}</g>`;
  }
  const blocks = Array.from({ length: 4 }, () => {
    const size = rand.int(90, 220);
    return `<rect x="${rand.int(-60, WIDTH - 60)}" y="${rand.int(-60, HEIGHT - 60)}" width="${size}" height="${size}" fill="#ffffff" fill-opacity="0.06" transform="rotate(${rand.int(0, 44)})"/>`;
  });
  return blocks.join('');
}

export function coverSvg({ title, author, type, seed }: CoverInput): string {
  const rand = createRandom(seed);
  const hue = rand.int(0, 359);
  // Dark backgrounds keep white text well above WCAG AA contrast whatever the hue.
  const from = hslToHex(hue, 0.5 + rand.next() * 0.2, 0.3);
  const to = hslToHex((hue + rand.int(25, 70)) % 360, 0.55, 0.16);
  const accent = hslToHex((hue + 180) % 360, 0.7, 0.72);
  // Unique per seed so several covers inlined on one page do not share one gradient.
  const gradientId = `cover-bg-${seed >>> 0}`;

  const label = type.replace(/[_-]+/g, ' ').trim().toUpperCase();
  const labelWidth = Math.round(label.length * 10.5 + 28);
  const labelSvg = label
    ? `<rect x="${MARGIN}" y="${MARGIN}" width="${labelWidth}" height="28" rx="14" fill="#ffffff" fill-opacity="0.16"/>` +
      `<text x="${MARGIN + 14}" y="${MARGIN + 19}" font-family="sans-serif" font-size="13" font-weight="700" letter-spacing="2" fill="#ffffff">${escapeXml(label)}</text>`
    : '';

  const { lines, fontSize } = fitTitle(title.trim() || 'Untitled');
  const lineHeight = Math.round(fontSize * 1.18);
  const titleSpans = lines
    .map(
      (line, i) =>
        `<tspan x="${MARGIN}" y="${TITLE_TOP + fontSize + i * lineHeight}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  const ruleY = TITLE_TOP + fontSize + (lines.length - 1) * lineHeight + 28;

  const authorLines = wrapText(author.trim(), charsPerLine(22)).slice(0, 2);
  const authorSpans = authorLines
    .map(
      (line, i) =>
        `<tspan x="${MARGIN}" y="${HEIGHT - MARGIN - (authorLines.length - 1 - i) * 28}">${escapeXml(line)}</tspan>`,
    )
    .join('');

  const accessibleName = escapeXml(author.trim() ? `${title} by ${author}` : title);

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="${gradientId}-title">`,
    `<title id="${gradientId}-title">${accessibleName}</title>`,
    `<defs><linearGradient id="${gradientId}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#${gradientId})"/>`,
    motif(rand),
    labelSvg,
    `<text font-family="serif" font-size="${fontSize}" font-weight="700" fill="#ffffff">${titleSpans}</text>`,
    `<rect x="${MARGIN}" y="${Math.min(ruleY, TITLE_BOTTOM + 10)}" width="64" height="4" fill="${accent}"/>`,
    `<text font-family="sans-serif" font-size="22" fill="#ffffff" fill-opacity="0.92">${authorSpans}</text>`,
    '</svg>',
  ].join('');
}
