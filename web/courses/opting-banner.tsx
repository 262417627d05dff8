import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import type { OptingBanner as OptingBannerData } from '#domain/courses/opting-banner.ts';
import { ErrorModal } from '#web/components/error-modal.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { OptingWorkflow } from './opting-workflow.tsx';
import { PartnerOptingPanel } from './partner-opting-panel.tsx';

type Failure = { direction: 'in' | 'out'; detail: string | null };

/**
 * The opting banner of the course section page (spec 1 §2, §4 Opting; spec 2 §8 Opt
 * messages): the member's status with the days left and the deadline, 'Learn More', and
 * 'Opt Out' or 'Opt In', which opens the workflow, or for the custom bookstore-partner
 * organisation the 'Go To My Bookstore' panel. A failed call shows the error modal; once an
 * opt-out went through, closing anything reloads the page to show the new status.
 */
export function OptingBanner({
  banner,
  memberId,
  learnMoreUrl,
  storeUrl,
}: {
  banner: OptingBannerData;
  memberId: number;
  learnMoreUrl: string;
  storeUrl: string | null;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const changed = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => (changed.current ? window.location.reload() : setOpen(false));
  const optedOut =
    banner.kind === 'standard' ? banner.optStatus === 'opted_out' : banner.message !== 'optedIn';
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
      </div>
      <Dialog.Root open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
        <div className="button-row">
          <a href={learnMoreUrl} className="button button--secondary">
            {t('opting.learnMore')}
          </a>
          {canAct ? (
            <Dialog.Trigger asChild>
              <button ref={button} type="button" className="button button--primary">
                {t(optedOut ? 'opting.optIn' : 'opting.optOut')}
              </button>
            </Dialog.Trigger>
          ) : null}
        </div>
        {open && banner.kind === 'standard' ? (
          <OptingWorkflow
            memberId={memberId}
            optStatus={banner.optStatus}
            deadline={banner.deadline}
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
          else setFailure(null);
        }}
      />
    </section>
  );
}
