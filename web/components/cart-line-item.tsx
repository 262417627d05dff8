import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type OfferingTermFacts, offeringNameWords } from '#domain/catalog/offering-terms.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

/**
 * One cart item as the cart page and the cart sheet show it (spec 2 §3 Cart: product name and
 * offering price): the title links to the product page, then the kind (a combo is digital and
 * print, spec 1 §3 Cart item) and which offering it is in plain words (issue 19: 180-day
 * rental, lifetime access, print copy), the price and the item's remove control.
 */
export function CartLineItem({
  line,
  children,
}: {
  line: {
    productId: number;
    title: string;
    languageCode: string;
    isDigital: boolean;
    isPrint: boolean;
    priceCents: number;
    currencyCode: string;
    /** The offering's type, duration and rental flag (offering-terms.ts). */
    term: OfferingTermFacts | null;
  };
  /** The remove control: a form on the page, a button in the sheet. */
  children: ReactNode;
}) {
  const t = useT();
  const locale = useLocale();
  const langOf = useContentLang();
  // Without its offering's facts a line says only digital or print.
  const kind =
    line.isDigital && line.isPrint
      ? 'cart.kind.combo'
      : line.isPrint
        ? 'cart.kind.print'
        : 'cart.kind.digital';
  return (
    <li className="cart-line">
      <div>
        <p className="cart-line__title">
          <Link to={`/product-detail/${line.productId}`} {...langOf(line.languageCode)}>
            {line.title}
          </Link>
        </p>
        {line.term ? (
          <p className="cart-line__term">{offeringNameWords(t, line.term)}</p>
        ) : (
          <p className="card__type">{t(kind)}</p>
        )}
      </div>
      <p className="cart-line__price">{formatMoney(locale, line.priceCents, line.currencyCode)}</p>
      {children}
    </li>
  );
}
