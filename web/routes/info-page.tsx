import { useMatches } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/info-page.ts';

// Support, Help, Privacy Notice, Terms of Use, Refund Policy and Accessibility of the main
// site; white labels link to their own pages instead (spec 1 §3 White label links).
const PAGES: Record<string, string> = {
  'info-support': 'support',
  'info-help': 'help',
  'info-help-bookstore': 'helpBookstore',
  'info-privacy': 'privacy',
  'info-terms': 'terms',
  'info-refund-policy': 'refund',
  'info-accessibility': 'accessibility',
};

export default function InfoPage() {
  const t = useT();
  const matches = useMatches();
  const page = PAGES[matches[matches.length - 1]?.id ?? ''] ?? 'support';
  return (
    <section className="narrow stack prose">
      <h1>{t(`page.${page}.title`)}</h1>
      <p>{t(`page.${page}.body`)}</p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const page = PAGES[matches[matches.length - 1]?.id ?? ''] ?? 'support';
  return pageMeta(matches, `page.${page}.title`);
};
