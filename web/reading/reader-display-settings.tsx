import { useId } from 'react';
import {
  FONT_SCALES,
  LINE_SPACINGS,
  READER_FONTS,
  READER_MARGINS,
  READER_THEMES,
  type ReaderSettings,
} from '#domain/reading/reader-settings.ts';
import { useT } from '#web/i18n/use-t.ts';
import { focusSoon } from './use-focus-on-open.ts';

/** The choices of the display panel, each a group of radio buttons (issue 16). */
const CHOICES = [
  ['font', READER_FONTS],
  ['lineSpacing', LINE_SPACINGS],
  ['margins', READER_MARGINS],
  ['theme', READER_THEMES],
] as const;

/**
 * The reader's display settings (issue 16): layout, text size, font, line spacing, margins and
 * theme, as far as they act on this book.
 */
export function ReaderDisplaySettings({
  settings,
  onChange,
  isPdf,
  fixed,
}: {
  settings: ReaderSettings;
  onChange(settings: ReaderSettings): void;
  /** A PDF's pages are laid out by their publisher, and made larger by their zoom. */
  isPdf: boolean;
  /** A fixed-layout book's pages are laid out by their publisher and turned one by one. */
  fixed: boolean;
}) {
  const t = useT();
  const ids = useId();
  return (
    <div className="stack-sm">
      {/* Only what acts on this book is offered: a PDF's or a fixed-layout book's pages
          are laid out by its publisher (font, spacing and margins would do nothing);
          a fixed-layout book is zoomed, not resized, and is turned page by page. */}
      {isPdf || fixed ? <p>{t('reader.display.laidOut')}</p> : null}
      {fixed ? null : (
        <fieldset>
          <legend>{t('reader.layout')}</legend>
          {(['paginated', 'scrolled'] as const).map((layout) => (
            <label key={layout} className="reader__choice">
              <input
                type="radio"
                name={`${ids}-layout`}
                value={layout}
                checked={settings.layout === layout}
                onChange={() => onChange({ ...settings, layout })}
              />
              {t(`reader.layout.${layout}`)}
            </label>
          ))}
        </fieldset>
      )}
      {/* A PDF's text is made larger by its zoom, beside the page (issue 38). */}
      {fixed || isPdf ? null : (
        <fieldset className="reader__size">
          <legend className="visually-hidden">{t('reader.size')}</legend>
          <button
            id={`${ids}-smaller`}
            type="button"
            className="button button--secondary"
            disabled={settings.fontScale <= FONT_SCALES[0]!}
            onClick={() => {
              const at = FONT_SCALES.indexOf(settings.fontScale) - 1;
              onChange({ ...settings, fontScale: FONT_SCALES[at]! });
              // The smallest size disables this button: the focus goes to the other.
              if (at === 0) focusSoon(`${ids}-larger`);
            }}
          >
            {t('reader.size.smaller')}
          </button>
          <span>{t('reader.size.value', { percent: settings.fontScale })}</span>
          <button
            id={`${ids}-larger`}
            type="button"
            className="button button--secondary"
            disabled={settings.fontScale >= FONT_SCALES[FONT_SCALES.length - 1]!}
            onClick={() => {
              const at = FONT_SCALES.indexOf(settings.fontScale) + 1;
              onChange({ ...settings, fontScale: FONT_SCALES[at]! });
              if (at === FONT_SCALES.length - 1) focusSoon(`${ids}-smaller`);
            }}
          >
            {t('reader.size.larger')}
          </button>
        </fieldset>
      )}
      {CHOICES.filter(([setting]) => !(isPdf || fixed) || setting === 'theme').map(
        ([setting, values]) => (
          <fieldset key={setting}>
            <legend>{t(`reader.${setting}`)}</legend>
            {values.map((value) => (
              <label key={value} className="reader__choice">
                <input
                  type="radio"
                  name={`${ids}-${setting}`}
                  value={value}
                  checked={settings[setting] === value}
                  onChange={() => onChange({ ...settings, [setting]: value })}
                />
                <span className={setting === 'font' ? `reader__font-sample--${value}` : undefined}>
                  {t(`reader.${setting}.${value}`)}
                </span>
              </label>
            ))}
          </fieldset>
        ),
      )}
    </div>
  );
}
