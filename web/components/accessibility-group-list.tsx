import type { AccessibilityGroup } from '#domain/catalog/accessibility-metadata.ts';
import { isMessageWording, type Wording } from '#domain/shared/wording.ts';
import { useT } from '#web/i18n/use-t.ts';
import { WordingText } from '#web/i18n/wording-text.tsx';

const wordingKey = (wording: Wording) =>
  isMessageWording(wording) ? wording.message : wording.text;

/**
 * Accessibility metadata by group (spec 1 §2), 'Not provided' for an empty one: the display
 * guide's statements in the page's language, a publisher's own text (its summary) in the
 * product's `language`.
 */
export function AccessibilityGroupList({
  groups,
  headingLevel,
  language,
}: {
  groups: AccessibilityGroup[];
  headingLevel: 3 | 4;
  language: string;
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
                <li key={`${wordingKey(item.wording)}-${index}`}>
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
                      <WordingText wording={item.wording} language={language} />
                    </a>
                  ) : item.url ? (
                    // The certifier's report, the publisher's accessibility contact.
                    <a
                      href={item.url}
                      {...(item.url.startsWith('mailto:')
                        ? {}
                        : { target: '_blank', rel: 'noopener noreferrer' })}
                    >
                      <WordingText wording={item.wording} language={language} />
                    </a>
                  ) : (
                    <WordingText wording={item.wording} language={language} />
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
