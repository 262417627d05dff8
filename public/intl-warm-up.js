try {
  const l = self.name || 'en';
  new Intl.NumberFormat(l).format(1234.5);
  new Intl.NumberFormat(l, { style: 'currency', currency: 'USD' }).format(1);
  new Intl.PluralRules(l).select(1);
  new Intl.PluralRules(l, { type: 'ordinal' }).select(1);
  new Intl.DateTimeFormat(l, { dateStyle: 'long', timeZone: 'America/New_York' }).format(0);
} catch {}
close();
