import { useId, useState } from 'react';
import {
  DEFAULT_HIGHLIGHT_COLOUR,
  HIGHLIGHT_COLOURS,
  type HighlightColour,
  NOTE_MAX_LENGTH,
} from '#domain/reading/annotation-rules.ts';
import type { Annotation } from '#domain/reading/annotations.ts';
import { EXPORT_FORMATS, type ExportFormat } from '#domain/reading/notes-export.ts';
import { useT } from '#web/i18n/use-t.ts';
import { focusSoon } from './use-focus-on-open.ts';

/** How much of a highlight's words the notebook shows. */
const QUOTE_SHOWN = 160;

/**
 * The reader's notebook (issue 16, study tools): highlight the selected words in a colour,
 * bookmark the page, and the list of both in reading order, filtered by colour, each with a
 * way to it, its note and a way to remove it. Everything is a button or a field: it all works
 * from the keyboard, and each highlight says its colour in words.
 */
export function ReaderNotebook({
  annotations,
  partTitle,
  onHighlight,
  onBookmark,
  onOpen,
  onNote,
  onRemove,
  onExport,
  onMove,
}: {
  annotations: Annotation[] | null;
  partTitle(part: number): string;
  onHighlight(colour: HighlightColour): void;
  onBookmark(): void;
  onOpen(annotation: Annotation): void;
  onNote(annotation: Annotation, note: string): void;
  /** Removes it; settles once the list no longer holds it. */
  onRemove(annotation: Annotation): Promise<void>;
  /** Saves the notes as a file; settles when the reader has been told how it went. */
  onExport(format: ExportFormat): Promise<void>;
  /** Goes to the next (1) or previous (-1) highlight, and says which it is. */
  onMove(direction: 1 | -1): void;
}) {
  const t = useT();
  const ids = useId();
  const [colour, setColour] = useState<HighlightColour>(DEFAULT_HIGHLIGHT_COLOUR);
  const [filter, setFilter] = useState<HighlightColour | 'all'>('all');
  const [editing, setEditing] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const shown = (annotations ?? []).filter(
    (annotation) => filter === 'all' || annotation.colour === filter,
  );
  // After a note is saved or its form closed, or an item removed, the focus goes on from
  // where the person was: that item's note button, or the next item (the list's filter when
  // none is left), never back to the top of the page.
  const closeNote = (annotation: Annotation) => {
    setEditing(null);
    focusSoon(`${ids}-note-button-${annotation.id}`);
  };
  const remove = (annotation: Annotation) => {
    const at = shown.findIndex((item) => item.id === annotation.id);
    const next = shown[at + 1] ?? shown[at - 1];
    void onRemove(annotation).then(() =>
      focusSoon(next ? `${ids}-open-${next.id}` : `${ids}-filter`),
    );
  };
  return (
    <div className="reader-notebook stack-sm">
      <fieldset className="reader-notebook__colours">
        <legend>{t('reader.notebook.colour')}</legend>
        {HIGHLIGHT_COLOURS.map((value) => (
          <label key={value} className="reader__choice">
            <input
              type="radio"
              name={`${ids}-colour`}
              value={value}
              checked={colour === value}
              onChange={() => setColour(value)}
            />
            <span className={`reader-swatch reader-swatch--${value}`} aria-hidden="true" />
            {t(`reader.colour.${value}`)}
          </label>
        ))}
      </fieldset>
      <div className="reader-notebook__actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onHighlight(colour)}
        >
          {t('reader.notebook.highlight')}
        </button>
        <button type="button" className="button button--secondary" onClick={onBookmark}>
          {t('reader.notebook.bookmark')}
        </button>
      </div>
      <div className="reader-notebook__actions">
        <button type="button" className="button button--secondary" onClick={() => onMove(-1)}>
          {t('reader.notebook.previousHighlight')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => onMove(1)}>
          {t('reader.notebook.nextHighlight')}
        </button>
      </div>
      <label htmlFor={`${ids}-filter`}>{t('reader.notebook.filter')}</label>
      <select
        id={`${ids}-filter`}
        value={filter}
        onChange={(event) => setFilter(event.target.value as HighlightColour | 'all')}
      >
        <option value="all">{t('reader.notebook.filter.all')}</option>
        {HIGHLIGHT_COLOURS.map((value) => (
          <option key={value} value={value}>
            {t(`reader.colour.${value}`)}
          </option>
        ))}
      </select>
      {annotations === null ? (
        <p>{t('reader.loading')}</p>
      ) : shown.length === 0 ? (
        <p>
          {filter !== 'all' && (annotations ?? []).length > 0
            ? t('reader.notebook.noneInColour', {
                colour: t(`reader.colour.${filter}`).toLowerCase(),
              })
            : t('reader.notebook.empty')}
        </p>
      ) : (
        <ol className="reader-notebook__list">
          {shown.map((annotation) => (
            <li key={annotation.id} className="reader-notebook__item stack-sm">
              <p className="reader-notebook__what">
                {annotation.kind === 'bookmark' ? (
                  t('reader.notebook.bookmarkIn', { chapter: partTitle(annotation.part) })
                ) : (
                  <>
                    <span
                      className={`reader-swatch reader-swatch--${annotation.colour}`}
                      aria-hidden="true"
                    />
                    {t('reader.notebook.highlightIn', {
                      colour: t(`reader.colour.${annotation.colour ?? DEFAULT_HIGHLIGHT_COLOUR}`),
                      chapter: partTitle(annotation.part),
                    })}
                  </>
                )}
              </p>
              <blockquote className="reader-notebook__quote">
                {annotation.exact.length > QUOTE_SHOWN
                  ? `${annotation.exact.slice(0, QUOTE_SHOWN)}…`
                  : annotation.exact}
              </blockquote>
              {annotation.located === null ? (
                <p className="field__error">{t('reader.notebook.lost')}</p>
              ) : null}
              {annotation.note && editing !== annotation.id ? (
                <p className="reader-notebook__note">{annotation.note}</p>
              ) : null}
              {editing === annotation.id ? (
                <form
                  className="stack-sm"
                  onSubmit={(event) => {
                    event.preventDefault();
                    const note = new FormData(event.currentTarget).get('note');
                    onNote(annotation, typeof note === 'string' ? note : '');
                    closeNote(annotation);
                  }}
                >
                  <label htmlFor={`${ids}-note-${annotation.id}`}>
                    {t('reader.notebook.note')}
                  </label>
                  <textarea
                    id={`${ids}-note-${annotation.id}`}
                    name="note"
                    rows={3}
                    maxLength={NOTE_MAX_LENGTH}
                    defaultValue={annotation.note ?? ''}
                    // biome-ignore lint/a11y/noAutofocus: the field the person just asked to write in
                    autoFocus
                  />
                  <div className="reader-notebook__actions">
                    <button type="submit" className="button button--primary">
                      {t('reader.notebook.saveNote')}
                    </button>
                    <button
                      type="button"
                      className="button button--secondary"
                      onClick={() => closeNote(annotation)}
                    >
                      {t('reader.notebook.cancel')}
                    </button>
                  </div>
                </form>
              ) : (
                <div className="reader-notebook__actions">
                  <button
                    id={`${ids}-open-${annotation.id}`}
                    type="button"
                    className="button button--secondary"
                    disabled={annotation.located === null}
                    onClick={() => onOpen(annotation)}
                  >
                    {t('reader.notebook.open')}
                  </button>
                  {annotation.kind === 'highlight' ? (
                    <button
                      id={`${ids}-note-button-${annotation.id}`}
                      type="button"
                      className="button button--secondary"
                      onClick={() => setEditing(annotation.id)}
                    >
                      {annotation.note
                        ? t('reader.notebook.editNote')
                        : t('reader.notebook.addNote')}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="button button--secondary"
                    onClick={() => remove(annotation)}
                  >
                    {t('reader.notebook.remove')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      <form
        className="reader-notebook__export stack-sm"
        onSubmit={(event) => {
          event.preventDefault();
          if (exporting) return;
          const format = new FormData(event.currentTarget).get('format') as ExportFormat;
          setExporting(true);
          void onExport(format).finally(() => setExporting(false));
        }}
      >
        <label htmlFor={`${ids}-format`}>{t('reader.notebook.exportFormat')}</label>
        <select id={`${ids}-format`} name="format" defaultValue="markdown">
          {EXPORT_FORMATS.map((format) => (
            <option key={format} value={format}>
              {t(`reader.notebook.exportFormat.${format}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="button button--secondary" aria-disabled={exporting}>
          {t('reader.notebook.export')}
        </button>
      </form>
    </div>
  );
}
