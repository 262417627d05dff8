import { useState } from 'react';
import { Link, useLoaderData } from 'react-router';
import { withReaderFiles } from '#domain/access/entitlement-facts.ts';
import { ownedProducts } from '#domain/shelf/service.ts';
import { ownedAction } from '#domain/shelf/shelf-button.ts';
import { ProductSideSheet } from '#web/components/product-side-sheet.tsx';
import { ShelfActionButton } from '#web/components/shelf-action.tsx';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { redeemedProductId } from '#web/utils/redeemed-param.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/library.ts';

export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  const owned = await ownedProducts(context.rc);
  // Each owned item opens its own way (spec 1 §4 priority 1); a book without a file to read
  // says so instead of a Read Now that ends in "not found" (issue 14).
  const readable = await withReaderFiles(
    context.rc,
    owned.map((item) => item.productId),
  );
  const items = owned.map((item) => {
    const action = ownedAction(item.productType);
    const noFile = action === 'read' && !readable.has(item.productId);
    return {
      id: item.productId,
      title: item.title,
      languageCode: item.languageCode,
      productType: item.productType,
      expiresAt: item.expiresAt?.toISOString() ?? null,
      action: noFile ? null : action,
      noFile,
    };
  });
  // Just redeemed on the standalone form (issue 38): which title, if it is the user's now.
  const redeemedId = redeemedProductId(new URL(request.url));
  return { owned: items, redeemed: items.find((item) => item.id === redeemedId) ?? null };
});

export default function LibraryPage() {
  const { owned, redeemed } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const langOf = useContentLang();
  const [openId, setOpenId] = useState<number | null>(null);
  // UTC on both sides, so the server's text and the browser's agree when hydrating.
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  return (
    <section className="narrow stack">
      <h1>{t('library.title')}</h1>
      {redeemed ? (
        <section className="alert alert--success stack-sm" aria-labelledby="library-redeemed">
          <h2 id="library-redeemed">{t('redeem.success.title')}</h2>
          <p>{t('redeem.success.text')}</p>
          <p>{t('redeem.success.unlocked', { title: redeemed.title })}</p>
          {redeemed.action ? (
            <p>
              <ShelfActionButton
                action={redeemed.action}
                productId={redeemed.id}
                title={redeemed.title}
              />
            </p>
          ) : null}
        </section>
      ) : null}
      <p>{t('library.intro')}</p>
      <section className="stack-sm" aria-labelledby="library-owned">
        <h2 id="library-owned">{t('library.owned.heading')}</h2>
        {owned.length === 0 ? (
          <p>{t('library.empty')}</p>
        ) : (
          <ul className="library-list">
            {owned.map((item) => (
              <li key={item.id} className="library-list__item">
                <div className="library-list__text">
                  <p className="card__type">{t(`type.${item.productType}`)}</p>
                  <p className="item-tile__title">
                    <Link to={`/product-detail/${item.id}`} {...langOf(item.languageCode)}>
                      {item.title}
                    </Link>
                  </p>
                  {item.expiresAt ? (
                    <p>
                      {t('library.accessUntil', { date: date.format(new Date(item.expiresAt)) })}
                    </p>
                  ) : null}
                </div>
                {item.action ? (
                  <ShelfActionButton action={item.action} productId={item.id} title={item.title} />
                ) : item.noFile ? (
                  <p>{t('reading.error.noFile')}</p>
                ) : null}
                <button
                  type="button"
                  className="button button--secondary"
                  aria-haspopup="dialog"
                  aria-label={t('library.detailsOf', { title: item.title })}
                  onClick={() => setOpenId(item.id)}
                >
                  {t('library.details')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <p>
        <Link to="/shelf" className="button button--primary">
          {t('library.toShelf')}
        </Link>
      </p>
      <ProductSideSheet productId={openId} onClose={() => setOpenId(null)} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'library.title');
