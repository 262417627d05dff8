import type { ReactNode } from 'react';
import { Form, Link } from 'react-router';
import type { PersonView } from '#domain/operations/helpdesk/person-view.ts';
import { useT } from '#web/i18n/use-t.ts';

type Confirm = { intent: 'lock' | 'revoke'; role?: string };

function ActionForm({
  csrfToken,
  intent,
  children,
  fields = {},
}: {
  csrfToken: string;
  intent: string;
  children: ReactNode;
  fields?: Record<string, string>;
}) {
  return (
    <Form method="post" className="cluster">
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}

/**
 * Issue 39: what the help desk may do for the person, each a form of its own; only the
 * actions the staff member may take are shown (the action asks the same rules again).
 */
export function PersonActions({
  view,
  name,
  csrfToken,
  confirm,
}: {
  view: Pick<PersonView, 'person' | 'can'>;
  name: string;
  csrfToken: string;
  confirm: Confirm | null;
}) {
  const t = useT();
  const { person, can } = view;
  if (confirm) {
    return (
      <section className="stack alert" aria-labelledby="helpdesk-confirm">
        <h2 id="helpdesk-confirm">
          {confirm.intent === 'lock'
            ? t('ops.helpdesk.confirm.lock', { name })
            : t('ops.helpdesk.confirm.revoke', {
                name,
                role: t(`ops.helpdesk.role.${confirm.role}`),
              })}
        </h2>
        <ActionForm
          csrfToken={csrfToken}
          intent={confirm.intent}
          fields={{ confirm: 'yes', ...(confirm.role ? { role: confirm.role } : {}) }}
        >
          <button type="submit" className="button button--primary">
            {confirm.intent === 'lock'
              ? t('ops.helpdesk.action.lockConfirm')
              : t('ops.helpdesk.action.revokeConfirm')}
          </button>
          <Link to={`/manage/users/${person.id}`} className="button button--secondary">
            {t('ops.helpdesk.action.cancel')}
          </Link>
        </ActionForm>
      </section>
    );
  }
  const grantable = can.grantableRoles.filter((r) => !person.roles.includes(r));
  const revocable = can.grantableRoles.filter((r) => person.roles.includes(r));
  return (
    <section className="stack" aria-labelledby="helpdesk-actions">
      <h2 id="helpdesk-actions">{t('ops.helpdesk.actions')}</h2>
      {can.switchTo ? (
        <ActionForm csrfToken={csrfToken} intent="switch">
          <button type="submit" className="button button--primary">
            {t('ops.helpdesk.action.switch')}
          </button>
        </ActionForm>
      ) : null}
      {can.lock ? (
        <ActionForm csrfToken={csrfToken} intent={person.isActive ? 'lock' : 'unlock'}>
          <button type="submit" className="button button--secondary">
            {person.isActive ? t('ops.helpdesk.action.lock') : t('ops.helpdesk.action.unlock')}
          </button>
        </ActionForm>
      ) : null}
      {can.mail ? (
        <div className="cluster">
          {!person.emailVerified ? (
            <ActionForm csrfToken={csrfToken} intent="verify">
              <button type="submit" className="button button--secondary">
                {t('ops.helpdesk.action.verify')}
              </button>
            </ActionForm>
          ) : null}
          <ActionForm csrfToken={csrfToken} intent="reset">
            <button type="submit" className="button button--secondary">
              {t('ops.helpdesk.action.reset')}
            </button>
          </ActionForm>
        </div>
      ) : null}
      {can.changeRoles ? (
        <div className="cluster">
          {grantable.map((r) => (
            <ActionForm key={r} csrfToken={csrfToken} intent="grant" fields={{ role: r }}>
              <button type="submit" className="button button--secondary">
                {t('ops.helpdesk.action.grant', { role: t(`ops.helpdesk.role.${r}`) })}
              </button>
            </ActionForm>
          ))}
          {revocable.map((r) => (
            <ActionForm key={r} csrfToken={csrfToken} intent="revoke" fields={{ role: r }}>
              <button type="submit" className="button button--secondary">
                {t('ops.helpdesk.action.revoke', { role: t(`ops.helpdesk.role.${r}`) })}
              </button>
            </ActionForm>
          ))}
        </div>
      ) : null}
    </section>
  );
}
