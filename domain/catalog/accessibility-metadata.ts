// spec 1 §2 Accessibility metadata modal, following the W3C "EPUB Accessibility Metadata
// Display Guide": fixed groups in a fixed order, each shown even when empty ('Not provided').
export const ACCESSIBILITY_GROUPS = [
  'Ways of Reading',
  'Conformance',
  'Navigation',
  'Rich Content',
  'Hazards',
  'Accessibility Summary',
  'Legal Considerations',
  'Additional Accessibility Information',
] as const;

/** The groups shown on the ACCESSIBILITY tab before 'See all accessibility metadata'. */
export const KEY_ACCESSIBILITY_GROUPS = ['Ways of Reading', 'Conformance', 'Navigation'] as const;

export type FeatureRow = {
  category: string;
  subcategory: string | null;
  name: string;
  detail: string | null;
  url: string | null;
};

export type AccessibilityItem = {
  name: string;
  detail: string | null;
  url: string | null;
  isCertifier: boolean;
};
export type AccessibilityGroup = { name: string; items: AccessibilityItem[] };

export function accessibilityGroups(rows: readonly FeatureRow[]): AccessibilityGroup[] {
  const accessibility = rows.filter((r) => r.category === 'accessibility');
  const certifier = accessibility.find((r) => r.name === 'Certifier')?.detail ?? null;
  const known = new Set<string>(ACCESSIBILITY_GROUPS);
  const toItem = (r: FeatureRow): AccessibilityItem => ({
    name: r.name,
    detail: r.detail,
    url: r.url,
    // A detail equal to the certifier shows a certification logo and link (spec 1 §2).
    isCertifier: certifier !== null && r.detail === certifier,
  });
  const groups = ACCESSIBILITY_GROUPS.map((name) => ({
    name,
    items: accessibility.filter((r) => r.subcategory === name).map(toItem),
  }));
  const others = accessibility.filter((r) => !known.has(r.subcategory ?? ''));
  if (others.length > 0) {
    groups[groups.length - 1]!.items.push(...others.map(toItem));
  }
  return groups;
}
