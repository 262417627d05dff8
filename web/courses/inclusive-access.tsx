import { Link, useLoaderData } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { publicPage } from '#web/utils/public-page.server.ts';
import type { Route } from './+types/inclusive-access.ts';
import { inclusiveAccessContent } from './inclusive-access-content.server.ts';

// /inclusive-access (issue 38: the opting banner's "More about inclusive access" and the public
// section page lead here): what inclusive access is, what the course fee covers (the rule of
// domain/courses/fee-covers.ts, in words), how it is billed, how to opt out and back in, the
// deadline, and what an opted-out student can do instead. The same for every visitor of a
// language; its text comes in the visitor's language only (inclusive-access-content.server.ts).
export function loader({ context }: Route.LoaderArgs) {
  publicPage(context);
  return inclusiveAccessContent(context.rc.locale);
}

export default function InclusiveAccessPage() {
  const content = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <article className="narrow stack prose">
      <h1>{t('inclusiveAccess.heading')}</h1>
      <p>{content.intro}</p>
      {content.parts.map((part) => (
        <section key={part.id} className="stack-sm" aria-labelledby={`inclusive-${part.id}`}>
          <h2 id={`inclusive-${part.id}`}>{part.heading}</h2>
          <p>{part.body}</p>
        </section>
      ))}
      <p>
        <Link to="/shelf">{t('inclusiveAccess.toShelf')}</Link>
      </p>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'inclusiveAccess.title');
