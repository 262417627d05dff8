import { Form } from 'react-router';
import { NOTE_MAX_LENGTH } from '#domain/access/classroom-note.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { noteDate } from './note-date.ts';

type Note = {
  id: number;
  body: string;
  authorName: string;
  createdAt: string;
  updatedAt: string;
};

/**
 * The instructor's notes to the class, newest first, dated in the reader's time zone. The
 * section's instructors write, edit and delete them here; students read them.
 */
export function ClassroomNotes({
  notes,
  timeZone,
  canWrite,
  error,
}: {
  notes: Note[];
  timeZone: string;
  canWrite: boolean;
  error: { form: string; messageKey: string } | null;
}) {
  const t = useT();
  const locale = useLocale();
  const when = (iso: string) => noteDate(locale, timeZone, iso);
  return (
    <section className="stack" aria-labelledby="notes-heading" id="notes">
      <h2 id="notes-heading">{t('classroom.notes')}</h2>
      {canWrite ? (
        <NoteForm intent="add-note" error={error?.form === 'new' ? error.messageKey : null} />
      ) : null}
      {notes.length === 0 ? (
        <p className="empty-state">{t('classroom.notes.none')}</p>
      ) : (
        <ol className="classroom-notes stack">
          {notes.map((note) => (
            <li key={note.id} className="classroom-note stack-sm">
              <p className="classroom-note__body">{note.body}</p>
              <p className="form-hint">
                {t('classroom.note.byline', {
                  author: note.authorName,
                  date: when(note.createdAt),
                })}
                {note.updatedAt !== note.createdAt
                  ? ` ${t('classroom.note.edited', { date: when(note.updatedAt) })}`
                  : null}
              </p>
              {canWrite ? (
                <NoteTools
                  note={note}
                  posted={when(note.createdAt)}
                  error={error?.form === String(note.id) ? error.messageKey : null}
                />
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Writing a note, or rewriting one (the same field, label and limit). */
function NoteForm({
  intent,
  note,
  error,
}: {
  intent: 'add-note' | 'edit-note';
  note?: Note;
  error: string | null;
}) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const fieldId = note ? `note-${note.id}-body` : 'note-new-body';
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  return (
    <Form method="post" className="stack-sm">
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
      <input type="hidden" name="intent" value={intent} />
      {note ? <input type="hidden" name="noteId" value={note.id} /> : null}
      <div className="field">
        <label htmlFor={fieldId}>
          {note ? t('classroom.note.editLabel') : t('classroom.note.newLabel')}
        </label>
        <textarea
          id={fieldId}
          name="body"
          rows={note ? 3 : 4}
          required
          maxLength={NOTE_MAX_LENGTH}
          defaultValue={note?.body}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        />
        <p className="form-hint" id={hintId}>
          {t('classroom.note.hint', { limit: NOTE_MAX_LENGTH })}
        </p>
        {error ? (
          <p className="field__error" id={errorId}>
            {t(error, { limit: NOTE_MAX_LENGTH })}
          </p>
        ) : null}
      </div>
      <p>
        <button type="submit" className="button button--primary">
          {note ? t('classroom.note.save') : t('classroom.note.post')}
        </button>
      </p>
    </Form>
  );
}

/** Edit (a disclosure holding the form, open when its last try failed) and Delete. */
function NoteTools({ note, posted, error }: { note: Note; posted: string; error: string | null }) {
  const t = useT();
  const csrfToken = useCsrfToken();
  return (
    <div className="button-row">
      <details className="classroom-note__edit" open={error ? true : undefined}>
        <summary
          className="button button--secondary"
          aria-label={t('classroom.note.editOf', { date: posted })}
        >
          {t('classroom.note.edit')}
        </summary>
        <NoteForm intent="edit-note" note={note} error={error} />
      </details>
      <Form method="post">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <input type="hidden" name="intent" value="delete-note" />
        <input type="hidden" name="noteId" value={note.id} />
        <button
          type="submit"
          className="button button--secondary"
          aria-label={t('classroom.note.deleteOf', { date: posted })}
        >
          {t('classroom.note.delete')}
        </button>
      </Form>
    </div>
  );
}
