import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { completeCatalogs } from '#web/i18n/catalog.ts';

type OnDemandProps<P> = P & {
  /** Shown from the first render where this is true on (a dialog's `open`, say). */
  when: boolean;
  /** What stands in its place until its code has arrived (nothing by default). */
  fallback?: ReactNode;
};

/**
 * A component whose code is a chunk of its own, downloaded the first time it is shown: the
 * dialogs, sheets and menus that a first visit does not open stay out of the page's
 * JavaScript (issue 13, budget in scripts/js-budget.ts). Once shown it stays mounted, so a
 * Radix dialog closes and gives focus back as it always did. `preload()` starts the download
 * early, from the hover or focus of the control that opens it. The rest of the page's language
 * comes with it (web/i18n/catalog.ts): a dialog shows texts the page did not.
 */
export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | null = null;
  function preload(): Promise<ComponentType<P>> {
    loading ??= Promise.all([load(), completeCatalogs()]).then(
      ([component]) => component,
      (error: unknown) => {
        // A failed download (offline a moment) is tried again on the next use.
        loading = null;
        throw error;
      },
    );
    return loading;
  }
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));

  function OnDemand({ when, fallback = null, ...props }: OnDemandProps<P>) {
    const [needed, setNeeded] = useState(when);
    if (when && !needed) setNeeded(true);
    if (!needed) return fallback;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...(props as P)} />
      </Suspense>
    );
  }
  return Object.assign(OnDemand, {
    preload: () => {
      preload().catch(() => undefined);
    },
  });
}
