import { type ReactNode, useState } from 'react';
import { useInnerHtml } from '#web/utils/inner-html.ts';
import {
  isComposedDocument,
  PERSONAL_SLOT_ATTRIBUTE,
  usePersonalPart,
} from '#web/utils/personal-part.ts';

/**
 * Where the server writes the visitor's own markup into a stored anonymous page it composes for
 * them (server/personal-splice.ts, decision 043): the navbar's cart, Help and account items. A
 * browser without JavaScript shows it as written. While the page hydrates the slot keeps that
 * markup as it is (the tree React Router's data describes is the anonymous one); once the
 * personal part is read, right after, `children` render with it, and look the same.
 */
export function PersonalSlot({
  as: Element,
  name,
  className,
  children,
}: {
  as: 'ul' | 'div';
  name: string;
  className?: string;
  children: ReactNode;
}) {
  const part = usePersonalPart();
  const [kept] = useState(() =>
    typeof document !== 'undefined' && isComposedDocument()
      ? (document.querySelector(`[${PERSONAL_SLOT_ATTRIBUTE}="${name}"]`)?.innerHTML ?? null)
      : null,
  );
  const html = useInnerHtml(kept ?? '');
  const slot = { [PERSONAL_SLOT_ATTRIBUTE]: name };
  if (kept !== null && part === null) {
    return (
      <Element
        key="server"
        className={className}
        {...slot}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the page's own markup, read back from the document the server wrote
        dangerouslySetInnerHTML={html}
        suppressHydrationWarning
      />
    );
  }
  return (
    <Element key="browser" className={className} {...slot}>
      {children}
    </Element>
  );
}
