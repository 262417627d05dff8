import { UNSAFE_useScrollRestoration as useScrollRestoration } from 'react-router';

/** Where React Router keeps the scroll positions of this tab's history entries. */
const POSITIONS_KEY = 'react-router-scroll-positions';
const RESTORED_ATTRIBUTE = 'data-restored-scroll';

/**
 * React Router's scroll restoration with a cheaper script before hydration. React Router's own
 * script gives a history entry without a key a new one, then looks that new key up in
 * sessionStorage, where it cannot be: on every first visit it read the storage for nothing,
 * and a first sessionStorage read (the browser process loads the tab's storage) was 10–70 ms of
 * the main thread while the page loaded (Lighthouse traces, issue 13). This one reads the
 * storage only for an entry that had a key already (a reload, back or forward), which is when
 * a position may have been saved; the router's own hook saves and restores the rest.
 */
const RESTORE_SCRIPT = {
  __html: `(function(h){try{if(!h.state||!h.state.key){h.replaceState({key:Math.random().toString(32).slice(2)},"");return}var y=JSON.parse(sessionStorage.getItem(${JSON.stringify(POSITIONS_KEY)})||"{}")[h.state.key];if(typeof y==="number"){window.scrollTo(0,y);document.documentElement.setAttribute(${JSON.stringify(RESTORED_ATTRIBUTE)},String(y))}}catch(e){}})(window.history)`,
};

/**
 * The position a reload or a return restores, until the page is tall enough to reach it: the
 * server writes only the first results of a long list (<ServerMarkup>), so the position may be
 * further down than the first paint goes.
 */
export function restoredScrollY(): number | null {
  const value = document.documentElement.getAttribute(RESTORED_ATTRIBUTE);
  return value === null || !Number.isFinite(Number(value)) ? null : Number(value);
}

export function ScrollRestoration() {
  useScrollRestoration({ storageKey: POSITIONS_KEY });
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of our own
  return <script suppressHydrationWarning dangerouslySetInnerHTML={RESTORE_SCRIPT} />;
}
