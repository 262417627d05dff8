import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './script-hashes.ts';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('CSP hashes of inline scripts', () => {
  it('hashes each inline script once and skips external ones', () => {
    const html =
      '<script>window.a=1</script><script type="module" src="/assets/x.js"></script>' +
      '<script type="module">import("/assets/y.js")</script><script>window.a=1</script>';
    expect(inlineScriptHashes(html)).toEqual([sha('window.a=1'), sha('import("/assets/y.js")')]);
  });
});
