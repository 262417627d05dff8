import * as Dialog from '@radix-ui/react-dialog';
import {
  type AccessibilityGroup,
  KEY_ACCESSIBILITY_GROUPS,
} from '#domain/catalog/accessibility-metadata.ts';
import { useT } from '#web/i18n/use-t.ts';

function GroupList({
  groups,
  headingLevel,
}: {
  groups: AccessibilityGroup[];
  headingLevel: 3 | 4;
}) {
  const t = useT();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <div className="a11y-groups">
      {groups.map((group) => (
        <section key={group.name} className="stack-sm">
          <Heading>{t(`a11y.group.${group.name}`)}</Heading>
          {group.items.length === 0 ? (
            <p>{t('a11y.notProvided')}</p>
          ) : (
            <ul>
              {group.items.map((item, index) => (
                <li key={`${item.name}-${index}`}>
                  {item.isCertifier && item.url ? (
                    <a
                      href={item.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="certifier"
                    >
                      <svg
                        aria-hidden="true"
                        viewBox="0 0 24 24"
                        width="20"
                        height="20"
                        focusable="false"
                      >
                        <path
                          fill="currentColor"
                          d="M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Zm-1.2 14.2-3.5-3.5 1.4-1.4 2.1 2.1 4.9-4.9 1.4 1.4-6.3 6.3Z"
                        />
                      </svg>
                      {t('a11y.certifiedBy', { name: item.detail ?? '' })}
                    </a>
                  ) : (
                    (item.detail ?? t('a11y.notProvided'))
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

// The ACCESSIBILITY tab's summary and the 'Accessibility Metadata' modal (spec 1 §2).
export function AccessibilityMetadata({ groups }: { groups: AccessibilityGroup[] }) {
  const t = useT();
  const key = groups.filter((g) =>
    (KEY_ACCESSIBILITY_GROUPS as readonly string[]).includes(g.name),
  );
  return (
    <div className="stack">
      <GroupList groups={key} headingLevel={3} />
      <Dialog.Root>
        <Dialog.Trigger className="button button--secondary">{t('a11y.seeAll')}</Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog__overlay" />
          <Dialog.Content className="dialog dialog--wide" aria-describedby={undefined}>
            <Dialog.Title className="dialog__title">{t('a11y.title')}</Dialog.Title>
            <div className="dialog__scroll">
              <GroupList groups={groups} headingLevel={3} />
            </div>
            <div className="button-row">
              <Dialog.Close className="button button--primary">{t('a11y.close')}</Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
