import { data, Form, Link, useLoaderData } from 'react-router';
import { z } from 'zod';
import { MAX_QUERY_LENGTH, queryProblem } from '#domain/operations/helpdesk/people-query.ts';
import { searchPeople } from '#domain/operations/helpdesk/people-search.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { Pagination } from '#web/components/pagination.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/people-search.ts';

// The search box: a name, an e-mail address or a campus id; anything else is said beside it.
const SearchQuery = z.object({
  q: z
    .string()
    .default('')
    .transform((q) => q.trim())
    .superRefine((q, ctx) => {
      const problem = queryProblem(q);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  page: z.string().optional(),
});

// /manage/users (managers who post) and /manage/my-users (the others with My Users), issue 39:
// the help desk finds a person of the staff member's scope by name, e-mail or campus id.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  requireTool(request, context, 'users', 'myUsers');
  const url = new URL(request.url);
  const raw = {
    q: url.searchParams.get('q') ?? '',
    page: url.searchParams.get('page') ?? undefined,
  };
  const parsed = SearchQuery.safeParse(raw);
  const base = url.pathname.replace(/\/$/, '');
  const heading = base.endsWith('/my-users') ? 'menu.myUsers' : 'menu.users';
  if (!parsed.success) {
    return data(
      {
        q: raw.q.slice(0, MAX_QUERY_LENGTH),
        error: parsed.error.issues[0]?.message ?? 'error.invalid',
        result: null,
        base,
        heading,
      },
      { status: 400 },
    );
  }
  const result = await searchPeople(context.rc, {
    q: parsed.data.q,
    page: parseId(parsed.data.page ?? '1') ?? 1,
  });
  return { q: parsed.data.q, error: null, result: parsed.data.q ? result : null, base, heading };
});

export default function PeopleSearchPage() {
  const { q, error, result, base, heading } = useLoaderData<typeof loader>();
  const t = useT();
  const found = result
    ? t(result.more ? 'ops.helpdesk.search.resultsMore' : 'ops.helpdesk.search.results', {
        count: result.total,
      })
    : '';
  return (
    <section className="stack-lg">
      <h1>{t(heading)}</h1>
      <Form method="get" className="stack" role="search">
        <div className="field">
          <label htmlFor="helpdesk-q">{t('ops.helpdesk.search.label')}</label>
          <p className="field__hint" id="helpdesk-q-hint">
            {t('ops.helpdesk.search.hint')}
          </p>
          <input
            id="helpdesk-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={MAX_QUERY_LENGTH}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'helpdesk-q-hint helpdesk-q-error' : 'helpdesk-q-hint'}
          />
          {error ? (
            <p className="field__error" id="helpdesk-q-error">
              {t(error)}
            </p>
          ) : null}
        </div>
        <p>
          <button type="submit" className="button button--primary">
            {t('ops.helpdesk.search.submit')}
          </button>
        </p>
      </Form>
      {result ? (
        <section className="stack" aria-labelledby="helpdesk-results">
          <h2 id="helpdesk-results">{found}</h2>
          {result.people.length > 0 ? (
            <TableScroll label={found}>
              <table className="data-table">
                <caption className="visually-hidden">{found}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('ops.helpdesk.person.name')}</th>
                    <th scope="col">{t('ops.helpdesk.person.email')}</th>
                    <th scope="col">{t('ops.helpdesk.person.organisation')}</th>
                    <th scope="col">{t('ops.helpdesk.person.state')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.people.map((person) => (
                    <tr key={person.id}>
                      <th scope="row">
                        <Link to={`/manage/users/${person.id}`}>
                          {`${person.firstName} ${person.lastName}`.trim() || person.email}
                        </Link>
                      </th>
                      <td>{person.email}</td>
                      <td>{person.orgName ?? '—'}</td>
                      <td>
                        {person.isActive
                          ? t('ops.helpdesk.person.active')
                          : t('ops.helpdesk.person.locked')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ) : null}
          <Pagination
            page={result.page}
            pages={result.pages}
            href={(page) => `${base}?${new URLSearchParams({ q, page: String(page) })}`}
          />
        </section>
      ) : null}
    </section>
  );
}

// The tab says what the heading says: Users, or My Users.
export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(
    matches,
    data?.heading === 'menu.myUsers'
      ? 'ops.helpdesk.search.myPageTitle'
      : 'ops.helpdesk.search.pageTitle',
  );

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
