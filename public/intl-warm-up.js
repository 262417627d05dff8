// Runs on a worker's thread, started from the page's <head> (web/i18n/intl-warm-up.tsx). The
// browser's first Intl object loads its locale data, 25 to 70 ms on a desktop and four times
// that on a phone; that data is shared by the whole page, so loading it here, in parallel with
// the page's HTML and scripts, spares the main thread that wait when the page first shows a
// price or a count while it hydrates (issue 13, Lighthouse's blocking time).
try {
  const locale = self.name || 'en';
  new Intl.NumberFormat(locale).format(1234.5);
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(1);
  new Intl.PluralRules(locale).select(1);
  new Intl.PluralRules(locale, { type: 'ordinal' }).select(1);
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'America/New_York' }).format(0);
} catch {
  // An unknown locale: the page pays the wait itself, nothing more.
}
close();
