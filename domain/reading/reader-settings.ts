// How a reader likes to read (issue 16, reading settings): type size, font, line spacing,
// margins, theme, pages or scrolling. One set per user, kept on the server so that it follows
// the reader to every device (reader_settings), and in the browser for when it is offline.

export const READER_LAYOUTS = ['paginated', 'scrolled'] as const;
export const FONT_SCALES = [80, 90, 100, 110, 125, 150, 175, 200] as const;
/** `dyslexic` is OpenDyslexic (SIL Open Font License), served from our origin. */
export const READER_FONTS = ['serif', 'sans', 'dyslexic'] as const;
export const LINE_SPACINGS = ['compact', 'normal', 'relaxed'] as const;
export const READER_MARGINS = ['narrow', 'normal', 'wide'] as const;
export const READER_THEMES = ['light', 'sepia', 'dark'] as const;

export type ReaderLayout = (typeof READER_LAYOUTS)[number];
export type FontScale = (typeof FONT_SCALES)[number];
export type ReaderFont = (typeof READER_FONTS)[number];
export type LineSpacing = (typeof LINE_SPACINGS)[number];
export type ReaderMargins = (typeof READER_MARGINS)[number];
export type ReaderTheme = (typeof READER_THEMES)[number];

export type ReaderSettings = {
  layout: ReaderLayout;
  fontScale: FontScale;
  font: ReaderFont;
  lineSpacing: LineSpacing;
  margins: ReaderMargins;
  theme: ReaderTheme;
};

export const DEFAULT_READER_SETTINGS: ReaderSettings = {
  layout: 'paginated',
  fontScale: 100,
  font: 'serif',
  lineSpacing: 'normal',
  margins: 'normal',
  theme: 'light',
};

function oneOf<T>(values: readonly T[], value: unknown, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

/**
 * Settings from what was stored (the database's JSON, the browser's copy): each setting that is
 * one of its values is kept, any other falls back to its default. Unknown keys are dropped.
 */
export function readerSettingsFrom(raw: unknown): ReaderSettings {
  const saved = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const d = DEFAULT_READER_SETTINGS;
  return {
    layout: oneOf(READER_LAYOUTS, saved.layout, d.layout),
    fontScale: oneOf(FONT_SCALES, saved.fontScale, d.fontScale),
    font: oneOf(READER_FONTS, saved.font, d.font),
    lineSpacing: oneOf(LINE_SPACINGS, saved.lineSpacing, d.lineSpacing),
    margins: oneOf(READER_MARGINS, saved.margins, d.margins),
    theme: oneOf(READER_THEMES, saved.theme, d.theme),
  };
}

/** The reading area's colours in each theme (app.css uses the same values). */
export const THEME_COLOURS: Record<
  ReaderTheme,
  { text: string; background: string; link: string }
> = {
  light: { text: '#1b1f24', background: '#ffffff', link: '#1d4e89' },
  sepia: { text: '#3b2f22', background: '#f4ecd8', link: '#6b3e11' },
  dark: { text: '#e6e1d8', background: '#121417', link: '#9cc3ff' },
};

/** WCAG 2.2's contrast ratio of two sRGB colours written #rrggbb. */
export function contrastRatio(first: string, second: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}
