import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  DEFAULT_READER_SETTINGS,
  READER_THEMES,
  readerSettingsFrom,
  THEME_COLOURS,
} from './reader-settings.ts';

describe('reading settings (issue 16: type size, font, spacing, margins, themes, remembered)', () => {
  it('keeps every setting that is one of its values', () => {
    const chosen = {
      layout: 'scrolled',
      fontScale: 150,
      font: 'dyslexic',
      lineSpacing: 'relaxed',
      margins: 'wide',
      theme: 'sepia',
    };
    expect(readerSettingsFrom(chosen)).toEqual(chosen);
  });

  it('a setting that is not one of its values falls back to its default, alone', () => {
    expect(
      readerSettingsFrom({
        layout: 'sideways',
        fontScale: 101,
        font: 'Comic Sans',
        lineSpacing: 2,
        margins: null,
        theme: 'dark',
        extra: 'dropped',
      }),
    ).toEqual({ ...DEFAULT_READER_SETTINGS, theme: 'dark' });
    expect(readerSettingsFrom('{"theme":"dark"}')).toEqual(DEFAULT_READER_SETTINGS);
    expect(readerSettingsFrom(null)).toEqual(DEFAULT_READER_SETTINGS);
    expect(readerSettingsFrom(['dark'])).toEqual(DEFAULT_READER_SETTINGS);
  });

  it('the default is pages, 100 %, serif, normal spacing and margins, light', () => {
    expect(DEFAULT_READER_SETTINGS).toEqual({
      layout: 'paginated',
      fontScale: 100,
      font: 'serif',
      lineSpacing: 'normal',
      margins: 'normal',
      theme: 'light',
    });
  });

  it('contrast checked: every theme reaches WCAG AAA for its text and AA for its links', () => {
    for (const theme of READER_THEMES) {
      const { text, background, link } = THEME_COLOURS[theme];
      expect(contrastRatio(text, background), theme).toBeGreaterThanOrEqual(7);
      expect(contrastRatio(link, background), theme).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('the contrast ratio is WCAG’s: black on white is 21, a colour on itself 1, either order', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // #767676 on white is the lightest grey that passes AA (4.54).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});
