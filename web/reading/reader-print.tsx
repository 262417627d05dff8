import { type Ref, useId, useImperativeHandle, useRef, useState } from 'react';
import { pageRangeProblem } from '#domain/reading/print-pages.ts';
import { useT } from '#web/i18n/use-t.ts';

export type ReaderPrintHandle = {
  /** Opens the form on the page being read, with the focus in it (Ctrl+P). */
  open(): void;
};

// Print (issue 13): the pages to print, from the page being read by default, within what
// the book still allows; the reader asks the server to count them, then prints those pages.
export function ReaderPrint({
  ref,
  pages,
  left,
  busy,
  current,
  onPrint,
}: {
  ref?: Ref<ReaderPrintHandle>;
  /** The book's print pages, and how many of them may still be printed. */
  pages: number;
  left: number;
  busy: boolean;
  /** The print page being read, and its label in the printed edition, if it has one. */
  current(): { page: number; label: string | null };
  onPrint(from: number, to: number): void;
}) {
  const t = useT();
  const id = useId();
  const details = useRef<HTMLDetailsElement>(null);
  const firstField = useRef<HTMLInputElement>(null);
  const [here, setHere] = useState<{ page: number; label: string | null }>({
    page: 1,
    label: null,
  });
  // As typed (the fields check them: whole pages of the book, the last not before the first).
  const [from, setFrom] = useState('1');
  const [to, setTo] = useState('1');
  // Checked by us on Print, in the reader's language (the browser's own bubble is neither).
  const [error, setError] = useState<{ field: 'from' | 'to'; message: string } | null>(null);
  const toField = useRef<HTMLInputElement>(null);

  const startHere = () => {
    const now = current();
    setHere(now);
    setFrom(String(now.page));
    setTo(String(now.page));
    setError(null);
  };

  /** The pages asked for, or what is wrong with them, said beside the field at fault. */
  const check = (): { from: number; to: number } | null => {
    const page = (typed: string) => (/^\s*\d{1,7}\s*$/.test(typed) ? Number(typed) : Number.NaN);
    const first = page(from);
    const last = page(to);
    // The same rule as the server's (domain/reading/print-pages.ts).
    const problem = pageRangeProblem(pages, first, last);
    const wrong =
      problem === null
        ? null
        : problem === 'order'
          ? { field: 'to' as const, message: t('reader.print.badOrder', { from: first }) }
          : { field: problem, message: t('reader.print.badPage', { pages }) };
    setError(wrong);
    if (!wrong) return { from: first, to: last };
    (wrong.field === 'from' ? firstField : toField).current?.focus();
    return null;
  };
  const invalid = (field: 'from' | 'to') =>
    error?.field === field
      ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` }
      : {};

  useImperativeHandle(ref, () => ({
    open() {
      startHere();
      if (details.current) details.current.open = true;
      firstField.current?.focus();
    },
  }));

  return (
    <details
      ref={details}
      className="reader-print-form"
      onToggle={(event) => {
        if (event.currentTarget.open) startHere();
      }}
    >
      <summary>{t('reader.print')}</summary>
      <form
        className="stack-sm"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (busy) return;
          const asked = check();
          if (asked) onPrint(asked.from, asked.to);
        }}
      >
        <p>
          {here.label !== null && here.label !== String(here.page)
            ? t('reader.print.currentLabel', { page: here.page, pages, label: here.label })
            : t('reader.print.current', { page: here.page, pages })}{' '}
          {t('reader.print.left', { left })}
        </p>
        <div className="cluster">
          <label htmlFor={`${id}-from`}>{t('reader.print.from')}</label>
          <input
            ref={firstField}
            id={`${id}-from`}
            type="number"
            inputMode="numeric"
            required
            min={1}
            max={pages}
            value={from}
            {...invalid('from')}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setFrom(value);
              if (Number(value) > Number(to)) setTo(value);
            }}
          />
          <label htmlFor={`${id}-to`}>{t('reader.print.to')}</label>
          <input
            ref={toField}
            id={`${id}-to`}
            type="number"
            inputMode="numeric"
            required
            min={Number(from) || 1}
            max={pages}
            value={to}
            {...invalid('to')}
            onChange={(event) => setTo(event.currentTarget.value)}
          />
        </div>
        {error ? (
          <p id={`${id}-error`} className="field__error" role="alert">
            {error.message}
          </p>
        ) : null}
        {/* Not disabled while busy: the button keeps the focus (a second press does nothing). */}
        <button
          type="submit"
          className="button button--secondary"
          aria-disabled={busy || undefined}
          disabled={left === 0}
        >
          {busy ? t('reader.print.preparing') : t('reader.print.submit')}
        </button>
      </form>
    </details>
  );
}
