import { describe, expect, it } from 'vitest';
import { isWebAddress, mergerNotice } from './merger.ts';

const banner = { message: 'Shelfmark is joining VitalSource.', messageFrCa: 'Shelfmark se joint.' };
const shows = { showVsModal: true, redirectUrl: 'https://store.example.com/' };

describe('mergerNotice (spec 1 §1, spec 2 §4)', () => {
  it('spec 2 §4: with the merger flag off there is no banner and no modal', () => {
    expect(mergerNotice({ flagOn: false, banner, locale: 'en', settings: shows })).toBeNull();
  });

  it('spec 1 §1: with the flag on the banner shows, and the modal leads to the configured address', () => {
    expect(mergerNotice({ flagOn: true, banner, locale: 'en', settings: shows })).toEqual({
      message: 'Shelfmark is joining VitalSource.',
      modalUrl: 'https://store.example.com/',
    });
  });

  it('the banner reads French on a French page, English when no French was written', () => {
    expect(mergerNotice({ flagOn: true, banner, locale: 'fr-CA', settings: shows })?.message).toBe(
      'Shelfmark se joint.',
    );
    expect(
      mergerNotice({
        flagOn: true,
        banner: { ...banner, messageFrCa: null },
        locale: 'fr-CA',
        settings: shows,
      })?.message,
    ).toBe('Shelfmark is joining VitalSource.');
  });

  it('spec 2 §4: without an active banner message the catalog says it (message null)', () => {
    expect(mergerNotice({ flagOn: true, banner: null, locale: 'en', settings: shows })).toEqual({
      message: null,
      modalUrl: 'https://store.example.com/',
    });
  });

  it('the modal opens only where the site shows it (showVsModal) and has somewhere to go', () => {
    const notice = (settings: { showVsModal: boolean; redirectUrl: string | null }) =>
      mergerNotice({ flagOn: true, banner, locale: 'en', settings })?.modalUrl;
    expect(notice({ showVsModal: false, redirectUrl: shows.redirectUrl })).toBeNull();
    expect(notice({ showVsModal: true, redirectUrl: null })).toBeNull();
    expect(notice({ showVsModal: true, redirectUrl: 'javascript:alert(1)' })).toBeNull();
    expect(notice({ showVsModal: true, redirectUrl: '/relative' })).toBeNull();
  });
});

describe('isWebAddress', () => {
  it('takes http and https addresses only', () => {
    expect(isWebAddress('https://example.com/x')).toBe(true);
    expect(isWebAddress('http://localhost:3000/')).toBe(true);
    for (const bad of [null, '', 'data:text/html,x', 'javascript:x', 'ftp://x', 'https://'])
      expect(isWebAddress(bad), String(bad)).toBe(false);
  });
});
