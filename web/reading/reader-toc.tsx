import type { TocEntry } from '#domain/reading/types.ts';
import type { LangAttributes } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';

type Props = {
  entries: TocEntry[];
  /** The chapter link's URL (works without JavaScript: the page opens at that chapter). */
  hrefOf(part: number): string;
  current: number;
  onOpen(entry: TocEntry): void;
};

function Entries({ entries, hrefOf, current, onOpen }: Props) {
  return (
    <ol>
      {entries.map((entry, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: entries are fixed for the book
        <li key={i}>
          <a
            href={hrefOf(entry.part)}
            aria-current={entry.part === current && !entry.fragment ? 'true' : undefined}
            onClick={(event) => {
              event.preventDefault();
              onOpen(entry);
            }}
          >
            {entry.label}
          </a>
          {entry.children.length > 0 ? (
            <Entries entries={entry.children} hrefOf={hrefOf} current={current} onOpen={onOpen} />
          ) : null}
        </li>
      ))}
    </ol>
  );
}

// The book's table of contents (its nav document or NCX; for a PDF, its outline or pages), its
// entries in the book's language (`lang`: an EPUB's chapter names are the book's words).
export function ReaderToc({ lang = {}, ...props }: Props & { lang?: LangAttributes }) {
  const t = useT();
  return (
    <nav aria-label={t('reader.toc')} className="reader-toc">
      {props.entries.length === 0 ? (
        <p>{t('reader.toc.none')}</p>
      ) : (
        <div {...lang}>
          <Entries {...props} />
        </div>
      )}
    </nav>
  );
}
