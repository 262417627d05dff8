import { createContext, useContext } from 'react';
import { useRootData } from '#web/i18n/use-t.ts';
import type { RootData } from '#web/root-data.ts';

/** The main site's shell data, given by the root's error boundary (shell-fallback.tsx). */
export const ShellFallbackContext = createContext<RootData | undefined>(undefined);

/**
 * The shell's data: the root loader's, or, on an error page whose root loader did not run,
 * the main site's title and links in the request's language (shell-fallback.tsx), so that
 * every page keeps its skip link, navbar and footer.
 */
export function useShellData(): RootData | undefined {
  const fallback = useContext(ShellFallbackContext);
  return useRootData() ?? fallback;
}
