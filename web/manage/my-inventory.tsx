import { useEffect, useRef } from 'react';
import {
  data,
  Form,
  Link,
  redirect,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useNavigation,
} from 'react-router';
import { offeringNameWords } from '#domain/catalog/offering-terms.ts';
import { productPath } from '#domain/catalog/product-route.ts';
import {
  countStock,
  type InventoryLine,
  inventory,
  inventoryLine,
  receiveStock,
} from '#domain/commerce/inventory.ts';
import {
  countedUnits,
  INVENTORY_QUERY_MAX,
  type InventoryFilter,
  inventoryFilterOf,
  inventoryQueryOf,
  isLowStock,
  isOutOfStock,
  LOW_STOCK,
  MAX_COUNTED,
  MAX_RECEIVED,
  receivedUnits,
} from '#domain/commerce/inventory-rules.ts';
import { auditActorOf } from '#domain/operations/audit.ts';
import { DomainError, Invalid } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { Pagination } from '#web/components/pagination.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/my-inventory.ts';

// /manage/my-inventory (spec 1 §2 user menu: "My Inventory (posting enabled and manager or
// impersonating)"): the store's counted stock, lowest first, with a delivery received or a
// count saved on each line (domain/commerce/inventory.ts). After a save the page comes back
// with the line's new figure said at the top; a refused one is said beside its field.

const DONE = ['receive', 'count'] as const;
type Done = (typeof DONE)[number];

function listUrl(url: URL, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  const show = url.searchParams.get('show');
  const page = url.searchParams.get('page');
  const q = inventoryQueryOf(url.searchParams.get('q'));
  if (show) params.set('show', inventoryFilterOf(show));
  if (q) params.set('q', q);
  if (page && parseId(page)) params.set('page', page);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ''}`;
}

export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  requireTool(request, context, 'myInventory');
  const url = new URL(request.url);
  const filter = inventoryFilterOf(url.searchParams.get('show'));
  const q = inventoryQueryOf(url.searchParams.get('q'));
  const list = await inventory(context.rc, {
    filter,
    q,
    page: parseId(url.searchParams.get('page') ?? '1') ?? 1,
  });
  const savedId = parseId(url.searchParams.get('saved') ?? '');
  const done = url.searchParams.get('done');
  const saved =
    savedId !== null && (DONE as readonly string[]).includes(done ?? '')
      ? await inventoryLine(context.rc, savedId)
      : null;
  return {
    filter,
    q,
    list,
    saved: saved ? { line: saved, done: done as Done } : null,
  };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const { user } = requireTool(request, context, 'myInventory');
  const form = await request.formData();
  const intent = form.get('intent');
  const offeringId = parseId(form.get('offeringId'));
  try {
    if (offeringId === null || (intent !== 'receive' && intent !== 'count')) {
      throw new Invalid('error.invalid');
    }
    const actor = auditActorOf(user);
    if (intent === 'receive') {
      await receiveStock(context.rc, actor, {
        offeringId,
        units: receivedUnits(form.get('units')),
      });
    } else {
      // The line's version when the count began (a hidden field of the form).
      const version = form.get('version');
      await countStock(context.rc, actor, {
        offeringId,
        counted: countedUnits(form.get('counted')),
        version: typeof version === 'string' ? version : '',
      });
    }
    return redirect(listUrl(new URL(request.url), { saved: String(offeringId), done: intent }));
  } catch (error) {
    if (error instanceof DomainError && error.status !== 403) {
      // The line's title, so the refusal can be said at the top when the line is not on the
      // page the list reloads to (a count overtaken by a delivery that took it off "low").
      const line = offeringId === null ? null : await inventoryLine(context.rc, offeringId);
      return data(
        {
          offeringId,
          title: line?.title ?? null,
          intent: intent === 'count' ? ('count' as const) : ('receive' as const),
          error: error.messageKey,
          params: (error.params ?? {}) as Record<string, number>,
        },
        { status: error.status },
      );
    }
    throw error;
  }
});

export default function MyInventoryPage() {
  const { filter, q, list, saved } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const t = useT();
  const base = '/manage/my-inventory';
  const caption = q
    ? t('inventory.caption.search', { count: list.total, q })
    : t(filter === 'low' ? 'inventory.caption.low' : 'inventory.caption.all', {
        count: list.total,
        low: LOW_STOCK,
      });
  // A refusal is said beside its line; at the top when that line is not on this page.
  const shownHere = refused && list.lines.some((line) => line.offeringId === refused.offeringId);
  const href = (params: Record<string, string>) => {
    const query = new URLSearchParams({ ...(q ? { q } : {}), ...params }).toString();
    return query ? `${base}?${query}` : base;
  };
  return (
    <section className="stack-lg">
      <h1>{t('menu.myInventory')}</h1>
      <p>{t('inventory.intro')}</p>
      {/* A new refusal replaces the last save's notice: one outcome at a time. */}
      {saved && !refused ? (
        <SavedNotice
          key={`${saved.line.offeringId}-${saved.line.version}-${saved.done}`}
          line={saved.line}
          done={saved.done}
        />
      ) : null}
      {refused && !shownHere ? (
        <p className="alert alert--error" role="alert">
          {refused.title ? `${refused.title}: ` : ''}
          {t(refused.error, refused.params)}
        </p>
      ) : null}
      <Form method="get" className="stack" role="search" aria-label={t('menu.myInventory')}>
        {filter === 'low' ? <input type="hidden" name="show" value="low" /> : null}
        <div className="field">
          <label htmlFor="inventory-q">{t('inventory.search.label')}</label>
          <input
            id="inventory-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={INVENTORY_QUERY_MAX}
            autoComplete="off"
          />
        </div>
        <p>
          <button type="submit" className="button button--primary">
            {t('inventory.search.submit')}
          </button>
        </p>
      </Form>
      <nav aria-label={t('inventory.filters')}>
        <ul className="chips">
          {(['all', 'low'] as const satisfies readonly InventoryFilter[]).map((option) => (
            <li key={option}>
              <Link
                className="chip"
                to={option === 'all' ? href({}) : href({ show: option })}
                aria-current={filter === option ? 'page' : undefined}
              >
                {t(`inventory.filter.${option}`, { low: LOW_STOCK })}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h2>{caption}</h2>
      {list.lines.length === 0 ? (
        <p>
          {q
            ? t('inventory.none.search', { q })
            : t(filter === 'low' ? 'inventory.none.low' : 'inventory.none.all')}
        </p>
      ) : (
        <TableScroll label={caption}>
          <table className="data-table data-table--stack">
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t('inventory.col.product')}</th>
                <th scope="col">{t('inventory.col.offering')}</th>
                <th scope="col" className="num">
                  {t('inventory.col.stock')}
                </th>
                <th scope="col">{t('inventory.col.receive')}</th>
                <th scope="col">{t('inventory.col.count')}</th>
              </tr>
            </thead>
            <tbody>
              {list.lines.map((line) => (
                <InventoryRow
                  key={line.offeringId}
                  line={line}
                  refused={refused && refused.offeringId === line.offeringId ? refused : null}
                />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination
        page={list.page}
        pages={list.pages}
        href={(page) =>
          href(filter === 'low' ? { show: 'low', page: String(page) } : { page: String(page) })
        }
      />
    </section>
  );
}

function SavedNotice({ line, done }: { line: InventoryLine; done: Done }) {
  const t = useT();
  const notice = useRef<HTMLOutputElement>(null);
  // After a save the list is sorted anew and the line may have moved: the keyboard starts again
  // from what was saved, which a screen reader reads out.
  // (Each save mounts a notice of its own: the page keys it by the line's version.)
  useEffect(() => {
    notice.current?.focus();
  }, []);
  return (
    <output className="alert alert--success" ref={notice} tabIndex={-1}>
      {t(`inventory.saved.${done}`, {
        title: line.title,
        offering: offeringNameWords(t, line),
        stock: line.stock,
      })}
    </output>
  );
}

type Refusal = {
  intent: 'receive' | 'count';
  error: string;
  params: Record<string, number>;
};

function InventoryRow({ line, refused }: { line: InventoryLine; refused: Refusal | null }) {
  const t = useT();
  const locale = useLocale();
  const offering = offeringNameWords(t, line);
  const id = line.offeringId;
  const error = (intent: Refusal['intent']) =>
    refused?.intent === intent ? t(refused.error, refused.params) : null;
  return (
    <tr>
      <th scope="row">
        <Link to={productPath({ ...line, id: line.productId })}>{line.title}</Link>
        {line.isbn ? <span className="line-detail">{line.isbn}</span> : null}
      </th>
      <td data-label={t('inventory.col.offering')}>
        {offering}
        <span className="line-detail">
          {formatMoney(locale, line.priceCents, line.currencyCode)}
          {line.isActive ? '' : ` · ${t('skuLookup.offered.inactive')}`}
        </span>
      </td>
      <td className="num" data-label={t('inventory.col.stock')}>
        {new Intl.NumberFormat(locale).format(line.stock)}
        {isLowStock(line.stock) ? (
          <span className="line-detail">
            {isOutOfStock(line.stock) ? t('inventory.out') : t('inventory.low')}
          </span>
        ) : null}
      </td>
      <td data-label={t('inventory.col.receive')}>
        <UnitsForm
          key={`receive-${line.version}`}
          intent="receive"
          offeringId={id}
          field="units"
          label={t('inventory.receive.label', { title: line.title, offering })}
          maxLength={String(MAX_RECEIVED).length}
          submit={t('inventory.receive.submit')}
          error={error('receive')}
        />
      </td>
      <td data-label={t('inventory.col.count')}>
        <UnitsForm
          key={`count-${line.version}`}
          intent="count"
          offeringId={id}
          field="counted"
          label={t('inventory.count.label', { title: line.title, offering })}
          maxLength={String(MAX_COUNTED).length}
          submit={t('inventory.count.submit')}
          error={error('count')}
          version={line.version}
        />
      </td>
    </tr>
  );
}

/** One line's form of one figure (a delivery's units, a count's), its error beside it. */
function UnitsForm(props: {
  intent: Refusal['intent'];
  offeringId: number;
  field: 'units' | 'counted';
  label: string;
  maxLength: number;
  submit: string;
  error: string | null;
  /** A count carries the line's version as the page read it. */
  version?: string;
}) {
  const csrfToken = useCsrfToken();
  const navigation = useNavigation();
  // This very form on its way: a second Enter does not send the delivery twice.
  const sending =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === props.intent &&
    navigation.formData?.get('offeringId') === String(props.offeringId);
  const inputId = `${props.intent}-${props.offeringId}`;
  return (
    <Form method="post" className="cluster" noValidate>
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
      <input type="hidden" name="intent" value={props.intent} />
      <input type="hidden" name="offeringId" value={props.offeringId} />
      {props.version !== undefined ? (
        <input type="hidden" name="version" value={props.version} />
      ) : null}
      <label className="visually-hidden" htmlFor={inputId}>
        {props.label}
      </label>
      <input
        id={inputId}
        name={props.field}
        inputMode="numeric"
        size={6}
        maxLength={props.maxLength}
        autoComplete="off"
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${inputId}-error` : undefined}
      />
      <button type="submit" className="button button--secondary" disabled={sending}>
        {props.submit}
      </button>
      {props.error ? (
        <p className="field__error" id={`${inputId}-error`} role="alert">
          {props.error}
        </p>
      ) : null}
    </Form>
  );
}

/**
 * A refused save still reloads the list: a count overtaken by a sale must show the stock now,
 * and its form must carry that figure (React Router skips the reload after a 4xx by default).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  defaultShouldRevalidate,
}) => (formMethod?.toUpperCase() === 'POST' ? true : defaultShouldRevalidate);

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'inventory.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
