import { data, useLoaderData } from 'react-router';
import { DEFAULT_LOCALE } from '#domain/accounts/language.ts';
import { menuItemForPath } from '#domain/accounts/navigation.ts';
import { loadedLocale, translatePage } from '#web/i18n/catalog.ts';
import { useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { rootDataFrom } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/manage-tool.ts';

// The pages behind the user menu's gated items open only for those the menu shows them to:
// the same rule decides both (spec 1 §2 user menu groups; spec 1 §6 roles).
export function loader({ request, params, context }: Route.LoaderArgs) {
  const item = menuItemForPath(`/manage/${params.tool}`);
  if (!item) {
    requireUser(request, context);
    throw data(null, { status: 404 });
  }
  requireTool(request, context, item);
  return { item };
}

export default function ManageToolPage() {
  const { item } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t(`menu.${item}`)}</h1>
      <p>{t('manage.body')}</p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const locale = loadedLocale(rootDataFrom(matches)?.locale ?? DEFAULT_LOCALE);
  return [
    {
      title: loaderData
        ? translatePage(locale, `menu.${loaderData.item}`)
        : translatePage(locale, 'error.title'),
    },
  ];
};
