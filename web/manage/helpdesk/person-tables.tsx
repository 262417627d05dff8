import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PersonView } from '#domain/operations/helpdesk/person-view.ts';
import type { OwnershipEnd } from '#domain/shelf/ownership-end.ts';
import { formatMoney } from '#i18n/translate.ts';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';

// Mail kinds the page names; a kind added later reads 'Other message' until it is named.
const MAIL_KINDS = new Set([
  'account-link',
  'security-notice',
  'email-change-notice',
  'privacy-export',
  'privacy-delete',
  'sign-up-existing',
  'order-confirmation',
  'payment-refund',
  'line-refund',
  'line-refund-refused',
  'opting-confirmation',
  'section-place',
]);

/** Dates from the loader arrive as strings; shown in the reader's time zone. */
type Dated<T> = {
  [K in keyof T]: T[K] extends Date
    ? string | Date
    : T[K] extends Date | null
      ? string | Date | null
      : T[K];
};
type Rows<K extends keyof PersonView> = readonly Dated<
  PersonView[K] extends readonly (infer R)[] ? R : never
>[];

function Table({
  id,
  title,
  empty,
  headers,
  rows,
}: {
  id: string;
  title: string;
  empty: string;
  headers: string[];
  rows: ReactNode[][];
}) {
  return (
    <section className="stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <TableScroll label={title}>
          <table className="data-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {headers.map((header) => (
                  <th key={header} scope="col">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((cells, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of a read-only list, in order
                <tr key={index}>
                  {cells.map((cell, column) =>
                    column === 0 ? (
                      <th key={headers[column]} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={headers[column]}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

/**
 * Issue 39: the person's sections, what they own and how each was granted, orders, codes,
 * signed-in devices and the mails sent to them.
 */
export function PersonTables({
  view,
  timeZone,
}: {
  view: {
    sections: Rows<'sections'>;
    ownerships: Rows<'ownerships'>;
    orders: Rows<'orders'>;
    codes: Rows<'codes'>;
    devices: Rows<'devices'>;
    mails: Rows<'mails'>;
  };
  timeZone: string;
}) {
  const t = useT();
  const locale = useLocale();
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  /** Active, or why not: a revocation's reason (refund, opt-out, …) or the period's end. */
  const ownershipState = (end: Dated<OwnershipEnd>) => {
    switch (end.kind) {
      case 'active':
        return t('ops.helpdesk.ownerships.active');
      case 'notStarted':
        return t('ops.helpdesk.ownerships.notStarted');
      case 'expired':
        return t('ops.helpdesk.ownerships.expired', { date: when.format(new Date(end.at)) });
      case 'revoked':
        return t(`ops.helpdesk.ownerships.revoked.${end.reason}`, {
          date: when.format(new Date(end.at)),
        });
    }
  };
  const at = (value: string | Date | null) =>
    value === null ? (
      '—'
    ) : (
      <time dateTime={new Date(value).toISOString()}>{when.format(new Date(value))}</time>
    );
  return (
    <>
      <Table
        id="helpdesk-sections"
        title={t('ops.helpdesk.sections.title')}
        empty={t('ops.helpdesk.sections.empty')}
        headers={[
          t('ops.helpdesk.sections.course'),
          t('ops.helpdesk.sections.role'),
          t('ops.helpdesk.sections.optStatus'),
          t('ops.helpdesk.sections.courseFee'),
        ]}
        rows={view.sections.map((s) => [
          // As the shelf names a section: 'BIO 101: Section 001 · Principles of Biology'.
          `${sectionTitleText(t, s.title)} · ${s.sectionName}`,
          t(`ops.helpdesk.memberRole.${s.role}`),
          t(`ops.helpdesk.optStatus.${s.optStatus}`),
          s.courseFeeCents === null
            ? t('ops.courses.noFee')
            : formatMoney(locale, s.courseFeeCents),
        ])}
      />
      <Table
        id="helpdesk-ownerships"
        title={t('ops.helpdesk.ownerships.title')}
        empty={t('ops.helpdesk.ownerships.empty')}
        headers={[
          t('ops.helpdesk.ownerships.product'),
          t('ops.helpdesk.ownerships.source'),
          t('ops.helpdesk.ownerships.from'),
          t('ops.helpdesk.ownerships.until'),
          t('ops.helpdesk.ownerships.state'),
        ]}
        rows={view.ownerships.map((o) => [
          o.productTitle,
          t(`ops.helpdesk.source.${o.source}`),
          at(o.startsAt),
          o.expiresAt ? at(o.expiresAt) : t('ops.helpdesk.ownerships.noEnd'),
          ownershipState(o.end),
        ])}
      />
      <Table
        id="helpdesk-orders"
        title={t('ops.helpdesk.orders.title')}
        empty={t('ops.helpdesk.orders.empty')}
        headers={[
          t('ops.helpdesk.orders.order'),
          t('ops.helpdesk.orders.placed'),
          t('ops.helpdesk.orders.status'),
          t('ops.helpdesk.orders.total'),
        ]}
        rows={view.orders.map((o) => [
          <Link key={o.id} to={`/manage/orders/${o.id}`}>
            {t('ops.helpdesk.orders.number', { id: o.number })}
          </Link>,
          at(o.createdAt),
          // The buyer's own words for the state (their order page and receipt say the same).
          t(`orders.status.${o.status}`),
          formatMoney(locale, o.totalCents, o.currencyCode),
        ])}
      />
      <Table
        id="helpdesk-codes"
        title={t('ops.helpdesk.codes.title')}
        empty={t('ops.helpdesk.codes.empty')}
        headers={[
          t('ops.helpdesk.codes.product'),
          t('ops.helpdesk.codes.kind'),
          t('ops.helpdesk.codes.when'),
        ]}
        rows={view.codes.map((c) => [
          c.productTitle,
          c.kind === 'redeem'
            ? t('ops.helpdesk.codes.redeemed', { last4: c.last4 ?? '' })
            : c.revoked
              ? t('ops.helpdesk.codes.accessRevoked')
              : t('ops.helpdesk.codes.access'),
          at(c.at),
        ])}
      />
      <Table
        id="helpdesk-devices"
        title={t('ops.helpdesk.devices.title')}
        empty={t('ops.helpdesk.devices.empty')}
        headers={[
          t('ops.helpdesk.devices.device'),
          t('ops.helpdesk.devices.signedIn'),
          t('ops.helpdesk.devices.lastSeen'),
        ]}
        rows={view.devices.map((d) => [
          d.switchAccount
            ? t('ops.helpdesk.devices.switchAccount')
            : t('ops.helpdesk.devices.browser', {
                browser: d.browser ?? t('ops.helpdesk.devices.unknown'),
                system: d.system ?? t('ops.helpdesk.devices.unknown'),
              }),
          at(d.signedInAt),
          at(d.lastSeenAt),
        ])}
      />
      <Table
        id="helpdesk-mails"
        title={t('ops.helpdesk.mails.title')}
        empty={t('ops.helpdesk.mails.empty')}
        headers={[
          t('ops.helpdesk.mails.kind'),
          t('ops.helpdesk.mails.to'),
          t('ops.helpdesk.mails.queued'),
          t('ops.helpdesk.mails.sent'),
        ]}
        rows={view.mails.map((m) => [
          t(`ops.helpdesk.mailKind.${MAIL_KINDS.has(m.kind) ? m.kind : 'other'}`),
          m.to,
          at(m.queuedAt),
          m.sentAt ? at(m.sentAt) : t('ops.helpdesk.mails.waiting'),
        ])}
      />
    </>
  );
}
