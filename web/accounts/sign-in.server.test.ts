import { describe, expect, it } from 'vitest';
import type { WebContext } from '#server/load-context.ts';
import { relyingParty } from './sign-in.server.ts';

const context = (secureCookies: boolean) =>
  ({ secureCookies, rc: { site: { title: 'Campus Store' } } }) as unknown as WebContext;

describe('the relying party of a passkey (issue 20)', () => {
  it('issue 20: is the site the request came to, by host name and origin', () => {
    expect(
      relyingParty(new Request('http://localhost:3000/accounts/login/'), context(false)),
    ).toEqual({ id: 'localhost', origin: 'http://localhost:3000', name: 'Campus Store' });
  });

  it('issue 20: is https behind a TLS proxy, where the request itself arrives as http', () => {
    expect(
      relyingParty(new Request('http://store.example.edu/account/security'), context(true)),
    ).toEqual({
      id: 'store.example.edu',
      origin: 'https://store.example.edu',
      name: 'Campus Store',
    });
  });
});
