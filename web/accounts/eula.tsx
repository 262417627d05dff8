import { Form, redirect, useLoaderData } from 'react-router';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { acceptEula } from '#domain/accounts/service.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/eula.ts';

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const next = safeNextPath(new URL(request.url).searchParams.get('next'));
  if (!user.mustAcceptEula) throw redirect(next);
  return { next, csrfToken: context.csrfToken };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  await acceptEula(context.rc);
  return redirect(safeNextPath(String(form.get('next') ?? '')));
}

export default function EulaPage() {
  const { next, csrfToken } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('eula.title')}</h1>
      <p>{t('eula.intro')}</p>
      <div className="prose">
        <p>{t('eula.body1')}</p>
        <p>{t('eula.body2')}</p>
        <p>{t('eula.body3')}</p>
      </div>
      <Form method="post">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        <button type="submit" className="button button--primary">
          {t('eula.accept')}
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'eula.title');
