import { useState } from 'react';
import type { MenuGroup } from '#domain/accounts/navigation.ts';
import { useT } from '#web/i18n/use-t.ts';
import { onDemand } from '#web/utils/on-demand.tsx';

const UserMenuDropdown = onDemand(() =>
  import('./user-menu-dropdown.tsx').then((module) => module.UserMenuDropdown),
);

// The user dropdown of spec 1 §2, first name (or 'Username') on its button. The menu's code
// arrives when it is first wanted (hover or focus start the download, a click opens it): until
// then the button stands alone, with what it announces (a menu, closed).
export function UserMenu({ firstName, groups }: { firstName: string; groups: MenuGroup[] }) {
  const t = useT();
  const [wanted, setWanted] = useState(false);
  const name = firstName.trim() || t('nav.username');
  const content = (
    <>
      <span>{name}</span>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" focusable="false">
        <path fill="currentColor" d="m7 10 5 5 5-5z" />
      </svg>
    </>
  );
  const standIn = (
    <button
      type="button"
      className="button button--ghost user-menu__trigger"
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={UserMenuDropdown.preload}
      onFocus={UserMenuDropdown.preload}
      onClick={() => setWanted(true)}
    >
      {content}
    </button>
  );
  return (
    <UserMenuDropdown when={wanted} fallback={standIn} groups={groups} triggerContent={content} />
  );
}
