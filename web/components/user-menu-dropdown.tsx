import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MenuGroup } from '#domain/accounts/navigation.ts';
import { useRootData, useT } from '#web/i18n/use-t.ts';

// The user dropdown of spec 1 §2: groups shown when non-empty, then 'Log Out', which goes
// through the logout page ('Logging out...'). Loaded when first used (user-menu.tsx): it
// opens at once, as the click that asked for it meant.
export function UserMenuDropdown({
  groups,
  triggerContent,
}: {
  groups: MenuGroup[];
  triggerContent: ReactNode;
}) {
  const t = useT();
  const navigate = useNavigate();
  const links = useRootData()?.site.links;
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger className="button button--ghost user-menu__trigger">
        {triggerContent}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          {groups.map((group, index) => (
            <DropdownMenu.Group key={group.id} className="menu__group">
              {index > 0 ? <DropdownMenu.Separator className="menu__separator" /> : null}
              <DropdownMenu.Label className="menu__label">
                {t(`menu.group.${group.id}`)}
              </DropdownMenu.Label>
              {group.items.map((item) => (
                <DropdownMenu.Item key={item.id} asChild className="menu__item">
                  <Link to={item.path ?? links?.support ?? '/support'}>{t(`menu.${item.id}`)}</Link>
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Group>
          ))}
          <DropdownMenu.Separator className="menu__separator" />
          <DropdownMenu.Item className="menu__item" onSelect={() => navigate('/accounts/logout/')}>
            {t('nav.logout')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
