import { createContext, useContext } from 'react';

// The CSP nonce of this response, given by the server renderer; empty in the browser.
const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
