import {
  RECEIPT_ROW_LABELS,
  type ReceiptRow,
  receiptRowValue,
} from '#domain/commerce/receipt-amounts.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

const ROW_CLASS: Partial<Record<ReceiptRow['key'], string>> = {
  total: 'totals__total',
  noTax: 'totals__note',
};

/**
 * An order's amounts (domain/commerce/receipt-amounts.ts): subtotal, the platform fee when one
 * applies, the tax or that none was charged, and the total. The checkout, the order-complete
 * page and the receipt show them through this one list (issue 38: one rule, every view).
 */
export function OrderAmounts({ rows }: { rows: readonly ReceiptRow[] }) {
  const t = useT();
  const locale = useLocale();
  const money = (cents: number) => formatMoney(locale, cents, 'USD');
  return (
    <dl className="totals">
      {rows.map((row) => (
        <div key={row.key} className={ROW_CLASS[row.key]}>
          <dt>{t(RECEIPT_ROW_LABELS[row.key])}</dt>
          <dd>
            {row.key === 'total' ? (
              <strong>{money(row.cents)}</strong>
            ) : (
              receiptRowValue(row, money, t)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
