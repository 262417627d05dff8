// One ONIX element as the import reads it (issue 15): its reference-tag name whatever tag
// style or namespace the feed used, its attributes, its text and its children. A Product is
// read into one such tree at a time, so memory stays bounded whatever the feed's size.
export type OnixElement = {
  name: string;
  attributes: Readonly<Record<string, string>>;
  text: string;
  children: OnixElement[];
  /** The line of the start tag in the feed, for the report. */
  line: number;
};

export function childOf(element: OnixElement | undefined, name: string): OnixElement | undefined {
  return element?.children.find((c) => c.name === name);
}

export function childrenOf(element: OnixElement | undefined, name: string): OnixElement[] {
  return element ? element.children.filter((c) => c.name === name) : [];
}

/** The trimmed text of a child, or null when the child is absent or empty. */
export function textOf(element: OnixElement | undefined, name: string): string | null {
  const value = childOf(element, name)?.text.trim();
  return value ? value : null;
}

/** The element at a path of child names, the first match at each step. */
export function pathOf(
  element: OnixElement | undefined,
  ...names: string[]
): OnixElement | undefined {
  let at = element;
  for (const name of names) at = childOf(at, name);
  return at;
}
