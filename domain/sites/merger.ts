import type { Locale } from '#domain/accounts/language.ts';

/** The feature flag that turns the merger announcement on (spec 1 §1; spec 2 §4). */
export const MERGER_FLAG = 'merger';

/**
 * What a site says about VitalSource (spec 1 §3 White label: vsRedirectUrl, showVsModal;
 * Vitalsource config: showVsModal). `redirectUrl` is where 'Go To VitalSource' leads.
 */
export type VitalsourceSettings = { showVsModal: boolean; redirectUrl: string | null };

export type MergerNotice = {
  /** The banner's text in the visitor's language; null: the catalog's own wording. */
  message: string | null;
  /** Where the modal's 'Go To VitalSource' leads when the modal opens on this site, else null. */
  modalUrl: string | null;
};

/** Only a web address may be a button's destination (never `javascript:` and the like). */
export function isWebAddress(url: string | null | undefined): url is string {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.host !== '';
  } catch {
    return false;
  }
}

/**
 * The merger announcement a page shows, or null (spec 1 §1: a banner announces a merger with
 * another digital-textbook provider; the merger modal opens only when the merger feature flag
 * is on, and its button is 'Go To VitalSource'; spec 2 §4 the same).
 *
 * - The flag is the merger's switch: off, neither banner nor modal.
 * - On, the banner shows, with the active merger banner's message (French when there is one),
 *   else the catalog's wording of spec 2 §4 (future purchases through the other provider,
 *   owned materials still accessible here).
 * - The modal opens only where the site shows it (showVsModal) and there is somewhere to go.
 */
export function mergerNotice(input: {
  flagOn: boolean;
  banner: { message: string; messageFrCa: string | null } | null;
  locale: Locale;
  settings: VitalsourceSettings;
}): MergerNotice | null {
  if (!input.flagOn) return null;
  const { banner, settings } = input;
  const message = banner
    ? (input.locale === 'fr-CA' && banner.messageFrCa) || banner.message
    : null;
  const modalUrl =
    settings.showVsModal && isWebAddress(settings.redirectUrl) ? settings.redirectUrl : null;
  return { message, modalUrl };
}
