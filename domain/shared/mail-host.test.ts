import { describe, expect, it } from 'vitest';
import { currentMailHost, mailOrigin, withMailHost } from './mail-host.ts';

// Issue 37: mail links always use the site's public origin (a white-label site's own host).
describe('the origin of a mail’s links', () => {
  it('is PUBLIC_ORIGIN when the mail was queued outside a white-label site', () => {
    expect(mailOrigin(null, 'https://store.example.edu')).toBe('https://store.example.edu');
    expect(mailOrigin(null, 'https://store.example.edu/')).toBe('https://store.example.edu');
  });

  it('is the white label’s own host, with the store’s scheme and port', () => {
    expect(mailOrigin('books.campus.edu', 'https://store.example.edu')).toBe(
      'https://books.campus.edu',
    );
    expect(mailOrigin('bookstore.localhost', 'http://127.0.0.1:3190')).toBe(
      'http://bookstore.localhost:3190',
    );
  });

  it('never a host that is not a plain host name', () => {
    expect(mailOrigin('evil.example/x', 'https://store.example.edu')).toBe(
      'https://store.example.edu',
    );
    expect(mailOrigin('EVIL.example', 'https://store.example.edu')).toBe(
      'https://store.example.edu',
    );
  });
});

describe('the host a request runs within', () => {
  it('is seen by what it calls, across awaits, and not outside it', async () => {
    expect(currentMailHost()).toBeNull();
    const seen = await withMailHost('books.campus.edu', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentMailHost();
    });
    expect(seen).toBe('books.campus.edu');
    expect(currentMailHost()).toBeNull();
    expect(withMailHost(null, () => currentMailHost())).toBeNull();
  });
});
