import { useId, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';

export type ReaderHit = {
  part: number;
  occurrence: number;
  before: string;
  match: string;
  after: string;
};

// Search in the book: the hits with their context; choosing one opens its page and marks it.
export function ReaderSearch({
  search,
  partLabel,
  onOpen,
}: {
  search(query: string): Promise<ReaderHit[]>;
  partLabel(part: number): string;
  /** Opens a hit: the nth (from 1) of `count` found for `query`. */
  onOpen(hit: ReaderHit, query: string, n: number, count: number): void;
}) {
  const t = useT();
  const id = useId();
  const [query, setQuery] = useState('');
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'busy' }
    | { kind: 'done'; query: string; hits: ReaderHit[] }
    | { kind: 'failed' }
    | { kind: 'empty' }
  >({ kind: 'idle' });
  return (
    <div className="reader-search stack-sm">
      <search aria-label={t('reader.search.label')}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const q = query.trim();
            // Nothing to find: said, and the last search's results go.
            if (!q) {
              setState({ kind: 'empty' });
              return;
            }
            setState({ kind: 'busy' });
            search(q).then(
              (hits) => setState({ kind: 'done', query: q, hits }),
              () => setState({ kind: 'failed' }),
            );
          }}
        >
          <label htmlFor={`${id}-q`}>{t('reader.search.field')}</label>
          <div className="reader-search__row">
            <input
              id={`${id}-q`}
              type="search"
              maxLength={200}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            <button type="submit" className="button button--secondary">
              {t('reader.search.submit')}
            </button>
          </div>
        </form>
      </search>
      <output className="reader-search__count">
        {state.kind === 'busy'
          ? t('reader.search.busy')
          : state.kind === 'failed'
            ? t('error.generic')
            : state.kind === 'empty'
              ? t('reading.search.empty')
              : state.kind === 'done'
                ? t('reader.search.count', { count: state.hits.length, query: state.query })
                : ''}
      </output>
      {state.kind === 'done' && state.hits.length > 0 ? (
        <ol className="reader-search__hits">
          {state.hits.map((hit, i) => (
            <li key={`${hit.part}-${hit.occurrence}`}>
              <button
                type="button"
                className="reader-search__hit"
                onClick={() => onOpen(hit, state.query, i + 1, state.hits.length)}
              >
                <span className="reader-search__where">{partLabel(hit.part)}</span>
                <span>
                  {hit.before}
                  <mark>{hit.match}</mark>
                  {hit.after}
                </span>
              </button>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
