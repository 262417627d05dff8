import { useState } from 'react';
import {
  type AccessibilityGroup,
  KEY_ACCESSIBILITY_GROUPS,
} from '#domain/catalog/accessibility-metadata.ts';
import { useT } from '#web/i18n/use-t.ts';
import { onDemand } from '#web/utils/on-demand.tsx';
import { AccessibilityGroupList } from './accessibility-group-list.tsx';

const AccessibilityDialog = onDemand(() =>
  import('./accessibility-dialog.tsx').then((module) => module.AccessibilityDialog),
);

// The ACCESSIBILITY tab's summary and 'See all', which opens the 'Accessibility Metadata'
// modal (spec 1 §2; the modal's code is loaded when first opened).
export function AccessibilityMetadata({
  groups,
  language,
}: {
  groups: AccessibilityGroup[];
  /** The product's language, for the publisher's own text (its summary). */
  language: string;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const key = groups.filter((g) =>
    (KEY_ACCESSIBILITY_GROUPS as readonly string[]).includes(g.name),
  );
  return (
    <div className="stack">
      <AccessibilityGroupList groups={key} headingLevel={3} language={language} />
      <button
        type="button"
        className="button button--secondary"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={AccessibilityDialog.preload}
        onFocus={AccessibilityDialog.preload}
        onClick={() => setOpen(true)}
      >
        {t('a11y.seeAll')}
      </button>
      <AccessibilityDialog when={open} open={open} onClose={() => setOpen(false)}>
        <AccessibilityGroupList groups={groups} headingLevel={3} language={language} />
      </AccessibilityDialog>
    </div>
  );
}
