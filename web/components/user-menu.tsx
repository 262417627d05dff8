import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link, useNavigate } from 'react-router';
import type { MenuGroup } from '#domain/accounts/navigation.ts';
import { useRootData, useT } from '#web/i18n/use-t.ts';

// The user dropdown of spec 1 §2: first name (or 'Username'), groups shown when non-empty,
// then 'Log Out', which goes through the logout page ('Logging out...').
export function UserMenu({ firstName, groups }: { firstName: string; groups: MenuGroup[] }) {
  const t = useT();
  const navigate = useNavigate();
  const links = useRootData()?.site.links;
  const name = firstName.trim() || t('nav.username');
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="button button--ghost user-menu__trigger">
        <span>{name}</span>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" focusable="false">
          <path fill="currentColor" d="m7 10 5 5 5-5z" />
        </svg>
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
