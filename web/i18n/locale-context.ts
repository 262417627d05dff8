import { createContext } from 'react';
import type { Locale } from '#domain/accounts/language.ts';

/**
 * The request's language, given to React by the entry files (server: the request context;
 * browser: the `<html lang>` the server rendered), so that a page rendered without the root
 * loader's data (an action that threw, a 500) is still in the visitor's language (issue 18).
 * The root data's locale wins when it is there: it follows a language change at once.
 */
export const LocaleContext = createContext<Locale | null>(null);
