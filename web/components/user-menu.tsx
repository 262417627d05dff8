import { useState } from 'react';
import type { MenuGroup } from '#domain/accounts/navigation.ts';
import { onDemand } from '#web/utils/on-demand.tsx';

const UserMenuDropdown = onDemand(() =>
  import('./user-menu-dropdown.tsx').then((module) => module.UserMenuDropdown),
);

// The user dropdown of spec 1 §2, first name (or 'Username') on its button. The menu's code
// arrives when it is first wanted (hover or focus start the download, a click opens it): until
// then the button stands alone, with what it announces (a menu, closed). `name` is the first
// name, or 'Username' without one (navbar-actions.tsx).
export function UserMenu({ name, groups }: { name: string; groups: MenuGroup[] }) {
  const [wanted, setWanted] = useState(false);
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
