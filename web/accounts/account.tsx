import { Link, useLoaderData } from 'react-router';
import { campusLinkOffer } from '#domain/accounts/campus-sign-in-service.ts';
import { accountRoleNames } from '#domain/accounts/role-names.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/account.ts';
import { CampusLinkLine } from './campus-sign-in.tsx';

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  return {
    name: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    roles: await accountRoleNames(context.rc),
    locale: context.rc.locale,
    campus: await campusLinkOffer(context.rc),
    isManager: user.roles.includes('manager'),
  };
}

export default function AccountPage() {
  const account = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('account.title')}</h1>
      <dl className="details">
        <dt>{t('account.name')}</dt>
        <dd>{account.name}</dd>
        <dt>{t('account.email')}</dt>
        <dd>{account.email}</dd>
        <dt>{t('account.language')}</dt>
        <dd>{t(`language.${account.locale}`)}</dd>
        <dt>{t('account.roles')}</dt>
        <dd>{account.roles.map((role) => t(role)).join(', ')}</dd>
      </dl>
      <p className="cluster">
        <Link to="/account/orders">{t('account.more.orders')}</Link>
        <Link to="/account/privacy">{t('account.more.privacy')}</Link>
      </p>
      <p>
        <Link to="/account/security">{t('account.security')}</Link>
      </p>
      <p>
        <Link to="/account/profile">{t('account.profileLink')}</Link>
      </p>
      <p>
        <Link to="/account/sessions">{t('account.sessionsLink')}</Link>
      </p>
      <CampusLinkLine campus={account.campus} />
      {account.isManager ? (
        <p>
          <Link to="/manage/campus-sign-in">{t('manage.campus.link')}</Link>
        </p>
      ) : null}
      <p>
        <Link to="/accounts/logout/" className="button button--secondary">
          {t('account.logout')}
        </Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'account.title');
