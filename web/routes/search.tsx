import { data, Link, useLoaderData } from 'react-router';
import { pageNumber, shownRange } from '#domain/catalog/pagination.ts';
import { type SearchResultCard, searchCatalog } from '#domain/catalog/search.ts';
import { featuredTrays } from '#domain/catalog/service.ts';
import { Pagination } from '#web/components/pagination.tsx';
import { cardsVersion, ProductCard, useCardWords } from '#web/components/product-card.tsx';
import { ProductTray } from '#web/components/product-tray.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { pack, useUnpack } from '#web/utils/packed.ts';
import { publicPage } from '#web/utils/public-page.server.ts';
import { ServerMarkup } from '#web/utils/server-markup.tsx';
import { useServerOnly } from '#web/utils/server-only.ts';
import type { Route } from './+types/search.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const outcome = await searchCatalog(
    context.catalogRc,
    url.searchParams.get('terms'),
    pageNumber(url.searchParams.get('page')),
  );
  const trays = !outcome.ok || outcome.count === 0 ? await featuredTrays(context.catalogRc) : null;
  publicPage(
    context,
    [
      ...(outcome.ok ? outcome.results : []),
      ...(trays ? [...trays.bestSellers, ...trays.campusFavorites] : []),
    ],
    // Nothing of the visitor besides the shell: a logged-in search is composed (decision 043).
    { page: 'shell' },
  );
  // An over-long term is bad input (400) but still a page a person can read and fix.
  const status = outcome.ok || outcome.reason === 'empty' ? 200 : 400;
  if (!outcome.ok) return data({ outcome, trays }, { status });
  // The page hydrates with the server's markup of the results (<ServerMarkup>): a document
  // carries the cards only for the server's rendering (web/utils/server-only.ts); a route's data
  // (a navigation in the browser) carries them packed (web/utils/packed.ts).
  const { results: cards, ...found } = outcome;
  if (context.documentRequest) context.serverOnly.set(SERVER_CARDS, cards);
  const results = {
    ids: cards.map((card) => card.id),
    cards: context.documentRequest ? null : pack(cards),
  };
  return data({ outcome: { ...found, results }, trays }, { status });
}

const SERVER_CARDS = 'search.cards';
const NO_CARDS = pack<SearchResultCard[]>([]);

export default function SearchPage() {
  const { outcome, trays } = useLoaderData<typeof loader>();
  const t = useT();
  const words = useCardWords();
  const serverCards = useServerOnly<SearchResultCard[]>(SERVER_CARDS);
  const packedCards = outcome.ok ? outcome.results.cards : NO_CARDS;
  const cards = useUnpack(packedCards ?? NO_CARDS);
  if (!outcome.ok) {
    return (
      <div className="stack-lg">
        <section className="stack">
          <h1>{t(outcome.reason === 'empty' ? 'search.empty' : 'search.tooLong')}</h1>
          <SearchBox id="search-page-box" />
        </section>
        {trays ? <Trays trays={trays} /> : null}
      </div>
    );
  }
  const range = shownRange(outcome.page, outcome.count);
  return (
    <div className="stack-lg">
      <section className="stack">
        <h1>{t('search.heading', { terms: outcome.terms })}</h1>
        {outcome.count > 0 ? (
          <p>
            {t(outcome.more ? 'search.rangeMore' : 'search.range', {
              from: range.from,
              to: range.to,
              count: outcome.count,
            })}
          </p>
        ) : null}
        {outcome.course && outcome.courseMatches > 0 ? (
          <p>
            {t('search.courseMatches', {
              count: outcome.courseMatches,
              course: `${outcome.course.subject} ${outcome.course.number}`,
            })}{' '}
            <Link to="/courses/find">{t('courseFinder.link')}</Link>
          </p>
        ) : outcome.course || outcome.count === 0 ? (
          <p>
            {t('search.courseLookup')} <Link to="/courses/find">{t('courseFinder.link')}</Link>
          </p>
        ) : null}
      </section>
      {outcome.count === 0 ? (
        <>
          <section className="stack">
            <h2>{t('search.noResults')}</h2>
            <p>{t('search.noResultsHint')}</p>
          </section>
          {trays ? <Trays trays={trays} /> : null}
        </>
      ) : (
        <>
          <ServerMarkup
            as="ol"
            className="results"
            start={range.from}
            version={cardsVersion(words.locale, outcome.results.ids)}
            // What a tall screen shows of the results (six rows fill a desktop screen); the rest follow (ServerMarkup).
            firstPaint={6}
            count={outcome.results.ids.length}
            items={
              serverCards || packedCards
                ? () =>
                    (serverCards ?? cards()).map((product) => (
                      <li key={product.id}>
                        <ProductCard
                          product={product}
                          layout="row"
                          headingLevel={2}
                          words={words}
                        />
                      </li>
                    ))
                : null
            }
          />
          <Pagination
            page={outcome.page}
            pages={outcome.pages}
            href={(page) => `/search?terms=${encodeURIComponent(outcome.terms)}&page=${page}`}
          />
        </>
      )}
    </div>
  );
}

function Trays({ trays }: { trays: Awaited<ReturnType<typeof featuredTrays>> }) {
  return (
    <>
      <ProductTray titleId="tray.bestSellers" products={trays.bestSellers} />
      <ProductTray titleId="tray.campusFavorites" products={trays.campusFavorites} />
    </>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'search.title', undefined, 'search.description');
