import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import type { OptingBanner as OptingBannerData } from '#domain/courses/opting-banner.ts';
import type { OptingFacts as OptingFactsData } from '#domain/courses/service.ts';
import { ErrorModal } from '#web/components/error-modal.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { OptingFacts } from './opting-facts.tsx';
import { OptingWorkflow } from './opting-workflow.tsx';
import { PartnerOptingPanel } from './partner-opting-panel.tsx';

type Failure = { direction: 'in' | 'out'; detail: string | null };

/** Where the student stands when a dialog closed without a change (issue 19). */
type Notice = 'stillIn' | 'stillOut';

/**
 * The opting banner of the course section page (spec 1 §2, §4 Opting; spec 2 §8 Opt
 * messages): the member's status with the days left and the deadline, 'Learn More', and
 * 'Opt Out' or 'Opt In', which opens the workflow, or for the custom bookstore-partner
 * organisation the 'Go To My Bookstore' panel. A failed call shows the error modal; once an
 * opt-out went through, closing anything reloads the page to show the new status.
 *
 * Issue 19: Learn More opens the facts the student decides on (fee, what it includes, the
 * separate price, the deadline with its time zone), and every path ends in a status the
 * student sees: closing a dialog before the change says they are still opted in (or out) and
 * how to finish; after a change, the reloaded page says what they are now and since when.
 */
export function OptingBanner({
  banner,
  facts,
  course,
  memberId,
  learnMoreUrl,
  storeUrl,
}: {
  banner: OptingBannerData;
  facts: OptingFactsData;
  /** The section's title, as the page's heading says it. */
  course: string;
  memberId: number;
  learnMoreUrl: string;
  storeUrl: string | null;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const changed = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const optedOut =
    banner.kind === 'standard' ? banner.optStatus === 'opted_out' : banner.message !== 'optedIn';
  // Nothing changed: say so, and how to finish (issue 19). Cleared first, so that saying it
  // again after a second close is a change the live region announces again.
  const unchanged = () => {
    setNotice(null);
    window.setTimeout(() => setNotice(optedOut ? 'stillOut' : 'stillIn'), 100);
  };
  const close = () => {
    if (changed.current) return window.location.reload();
    setOpen(false);
    if (banner.kind === 'standard') unchanged();
  };
  const status = notice
    ? t(`opting.status.${notice}`, { deadline: facts.deadline })
    : facts.lastChange
      ? t(
          facts.lastChange.toStatus === 'opted_out'
            ? 'opting.status.optedOut'
            : 'opting.status.optedIn',
          { course, date: facts.lastChange.at },
        )
      : '';
  const text =
    banner.kind === 'standard'
      ? t(optedOut ? 'opting.banner.optedOut' : 'opting.banner.optedIn', {
          days: banner.daysLeft,
        })
      : t(`opting.banner.partner.${banner.message}`, {
          days: banner.daysLeft,
          date: banner.deadline,
        });
  const canAct = banner.kind === 'standard' || banner.open;
  return (
    <section className="opting-banner" aria-labelledby="opting-heading">
      <h2 id="opting-heading" className="visually-hidden">
        {t('opting.region')}
      </h2>
      <div className="stack-sm">
        <p className="opting-banner__text">{text}</p>
        {banner.kind === 'standard' ? (
          <p className="form-hint">{t('opting.banner.deadline', { date: banner.deadline })}</p>
        ) : null}
        <output className="opting-banner__status" aria-live="polite">
          {status}
        </output>
      </div>
      <details className="opting-banner__details">
        <summary className="button button--secondary">{t('opting.learnMore')}</summary>
        <div className="stack-sm">
          <h3>{t('opting.facts.title')}</h3>
          <OptingFacts facts={facts} id="opting-facts" />
          <p>
            <a href={learnMoreUrl}>{t('opting.facts.help')}</a>
          </p>
        </div>
      </details>
      <Dialog.Root open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
        {canAct ? (
          <div className="button-row">
            <Dialog.Trigger asChild>
              <button ref={button} type="button" className="button button--primary">
                {t(optedOut ? 'opting.optIn' : 'opting.optOut')}
              </button>
            </Dialog.Trigger>
          </div>
        ) : null}
        {open && banner.kind === 'standard' ? (
          <OptingWorkflow
            memberId={memberId}
            optStatus={banner.optStatus}
            deadline={banner.deadline}
            facts={facts}
            onClose={close}
            onChanged={() => {
              changed.current = true;
            }}
            onError={(direction, detail) => {
              setOpen(false);
              setFailure({ direction, detail });
            }}
          />
        ) : null}
        {open && banner.kind === 'partner' ? <PartnerOptingPanel storeUrl={storeUrl} /> : null}
      </Dialog.Root>
      <ErrorModal
        open={failure !== null}
        message={t('opting.error', { direction: failure?.direction ?? 'out' })}
        detail={failure?.detail ?? null}
        returnFocusTo={button}
        onClose={() => {
          if (changed.current) window.location.reload();
          else {
            setFailure(null);
            unchanged();
          }
        }}
      />
    </section>
  );
}
