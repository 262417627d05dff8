import { redirect, useLoaderData } from 'react-router';
import { z } from 'zod';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { changeLanguage } from '#domain/accounts/service.ts';
import { languageCookie } from '#server/cookies.ts';
import { LanguageForm } from '#web/components/language-form.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/language.ts';

const LanguageSchema = z.object({
  language: z.string().max(20),
  next: z.string().max(2000).optional(),
});

export function loader({ request, context }: Route.LoaderArgs) {
  return {
    next: safeNextPath(new URL(request.url).searchParams.get('next')),
    csrfToken: context.csrfToken,
  };
}

// Stored for logged-in users and in LANG for everyone (spec 1 §2 footer; spec 2 §7).
export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const parsed = LanguageSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response(null, { status: 400 });
  const language = await changeLanguage(context.rc, parsed.data.language);
  const cookie = languageCookie(language, context.secureCookies);
  return redirect(safeNextPath(parsed.data.next), { headers: { 'Set-Cookie': cookie } });
});

export default function LanguagePage() {
  const { next, csrfToken } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('language.title')}</h1>
      <LanguageForm next={next} csrfToken={csrfToken} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'language.title');
