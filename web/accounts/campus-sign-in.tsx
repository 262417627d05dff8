import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { CampusOffer } from '#domain/accounts/campus-sign-in-service.ts';
import { useT } from '#web/i18n/use-t.ts';

// Campus single sign-on on the login page (issue 20): on a white-label site of an organisation
// with campus sign-in, its button; elsewhere, the offer appears as soon as the e-mail typed in
// the login form belongs to a campus (and, without JavaScript, after Log In with no password).

function domainOf(email: string): string | null {
  const at = email.trim().lastIndexOf('@');
  return at > 0
    ? email
        .trim()
        .slice(at + 1)
        .toLowerCase()
    : null;
}

function campusOf(offer: CampusOffer, email: string) {
  const domain = domainOf(email);
  if (!domain) return null;
  return offer.domains.find((d) => domain === d.domain || domain.endsWith(`.${d.domain}`)) ?? null;
}

export function campusStartHref(campusId: number, next: string, email?: string): string {
  const query = new URLSearchParams({ campus: String(campusId) });
  if (next && next !== '/') query.set('next', next);
  if (email) query.set('login_hint', email.trim());
  return `/accounts/campus/start/?${query}`;
}

export function CampusSignInOffer({
  offer,
  next,
  email,
}: {
  offer: CampusOffer;
  next: string;
  /** The address the login form was sent with (no JavaScript), if any. */
  email: string;
}) {
  const t = useT(['campus.offer.detected', 'campus.offer.button']);
  const [typed, setTyped] = useState(email);
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const field = anchor.current
      ?.closest('section')
      ?.querySelector<HTMLInputElement>('input[name="email"]');
    if (!field) return;
    const update = () => setTyped(field.value);
    field.addEventListener('input', update);
    return () => field.removeEventListener('input', update);
  }, []);
  if (offer.siteCampus) {
    return (
      <div className="stack" ref={anchor}>
        <p>{t('campus.offer.site', { campus: offer.siteCampus.title })}</p>
        <p>
          <Link
            to={campusStartHref(offer.siteCampus.id, next)}
            className="button button--secondary"
            reloadDocument
          >
            {t('campus.offer.button')}
          </Link>
        </p>
      </div>
    );
  }
  if (offer.domains.length === 0) return null;
  const campus = campusOf(offer, typed);
  return (
    <div className="stack" ref={anchor}>
      <output className="campus-offer">
        {campus ? t('campus.offer.detected', { campus: campus.title }) : ''}
      </output>
      {campus ? (
        <p>
          <Link
            to={campusStartHref(campus.campusId, next, typed)}
            className="button button--primary"
            reloadDocument
          >
            {t('campus.offer.button')}
          </Link>
        </p>
      ) : null}
      {campus ? null : <p>{t('campus.offer.hint')}</p>}
    </div>
  );
}

/** My Account: link the campus identity to this account (after a refused first sign-in). */
export function CampusLinkLine({ campus }: { campus: { id: number; title: string } | null }) {
  const t = useT();
  if (!campus) return null;
  return (
    <p>
      <Link to={campusStartHref(campus.id, '/account')} reloadDocument>
        {t('campus.link', { campus: campus.title })}
      </Link>
    </p>
  );
}

/** A refused campus sign-in: what happened, in the user's words, and the way back. */
export function CampusSignInFailure({ reason }: { reason: string }) {
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('campus.error.heading')}</h1>
      <p className="alert alert--error" role="alert">
        {t(`campus.error.${reason}`)}
      </p>
      <p>
        <Link to="/accounts/login/">{t('campus.error.back')}</Link>
      </p>
    </section>
  );
}
