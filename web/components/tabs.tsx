import {
  createContext,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useId,
  useRef,
  useState,
} from 'react';

// Tabs as the WAI-ARIA Authoring Practices' tabs pattern, with automatic activation: a tab
// list, one tab in the Tab order (the selected one), the arrow keys, Home and End move
// between tabs and select them, each panel labelled by its tab. Written here instead of
// Radix's Tabs (issue 13, the JavaScript budget): the product page is the one page that
// shows tabs on its first paint, and Radix's tabs with their roving focus, collection and
// presence were 3 kB gzipped of its 120 kB. Every panel is in the server's HTML (the hidden
// ones with `hidden`), so what a tab shows is also there for search engines and no-JS reading.
//
// The API follows Radix's (Root, List, Trigger, Content) so the pages did not change.

type TabsState = {
  baseId: string;
  value: string;
  select: (value: string) => void;
};

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('Tabs parts must be inside <Tabs.Root>');
  return state;
}

const tabId = (baseId: string, value: string) => `${baseId}-tab-${value}`;
const panelId = (baseId: string, value: string) => `${baseId}-panel-${value}`;

export function Root({
  defaultValue,
  className,
  children,
}: {
  defaultValue: string;
  className?: string;
  children: ReactNode;
}) {
  const baseId = useId();
  const [value, select] = useState(defaultValue);
  return (
    <TabsContext.Provider value={{ baseId, value, select }}>
      <div className={className}>{children}</div>
    </TabsContext.Provider>
  );
}

export function List({
  className,
  children,
  'aria-label': label,
}: {
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
}) {
  const { select } = useTabs();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])];
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0 || tabs.length === 0) return;
    const next = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    const tab = next === undefined ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    tab.focus();
    select(tab.dataset.value ?? '');
  };
  return (
    <div
      ref={list}
      role="tablist"
      aria-orientation="horizontal"
      aria-label={label}
      className={className}
      onKeyDown={onKeyDown}
    >
      {children}
    </div>
  );
}

export function Trigger({
  value,
  className,
  children,
}: {
  value: string;
  className?: string;
  children: ReactNode;
}) {
  const { baseId, value: selected, select } = useTabs();
  const active = value === selected;
  return (
    <button
      type="button"
      role="tab"
      id={tabId(baseId, value)}
      aria-selected={active}
      aria-controls={panelId(baseId, value)}
      tabIndex={active ? 0 : -1}
      data-state={active ? 'active' : 'inactive'}
      data-value={value}
      className={className}
      onClick={() => select(value)}
    >
      {children}
    </button>
  );
}

export function Content({
  value,
  className,
  children,
}: {
  value: string;
  className?: string;
  children: ReactNode;
}) {
  const { baseId, value: selected } = useTabs();
  const active = value === selected;
  return (
    <div
      role="tabpanel"
      id={panelId(baseId, value)}
      aria-labelledby={tabId(baseId, value)}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern: Tab from the tab list goes to its panel, which may hold no link or button
      tabIndex={0}
      hidden={!active}
      data-state={active ? 'active' : 'inactive'}
      className={className}
    >
      {children}
    </div>
  );
}
