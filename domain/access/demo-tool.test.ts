import { describe, expect, it } from 'vitest';
import { DEMO_TOOL, oauthSignatureRefusal, shortRole, signatureBaseString } from './demo-tool.ts';
import { signOAuth1 } from './launch-service.ts';

// Issue 14: the demo tool checks LTI 1.1 launches with its own RFC 5849 code, independent of
// the library (oauth-1.0a) that signs them.
const url = 'http://127.0.0.1:3000/demo-tool/lti11/launch';
const now = new Date('2026-11-25T12:00:00Z');

function signed(params: Record<string, string> = {}) {
  return signOAuth1(
    url,
    { lti_message_type: 'basic-lti-launch-request', roles: 'Learner', ...params },
    DEMO_TOOL.consumerKey,
    DEMO_TOOL.secret,
    now,
  );
}

describe('the demo tool’s OAuth 1.0a check', () => {
  it('accepts what the platform signed, with its nonce and timestamp', () => {
    const fields = signed({ lis_person_name_full: "Zoë O'Brien & co (100%)" });
    expect(fields.oauth_nonce).toBeTruthy();
    expect(fields.oauth_timestamp).toBe(String(now.getTime() / 1000));
    expect(oauthSignatureRefusal(url, Object.entries(fields), DEMO_TOOL.secret, now)).toBeNull();
  });

  it('refuses a changed parameter, another secret, another address and an old timestamp', () => {
    const fields = signed();
    const entries = Object.entries(fields);
    const tampered = entries.map(
      ([k, v]) => [k, k === 'roles' ? 'Instructor' : v] as [string, string],
    );
    expect(oauthSignatureRefusal(url, tampered, DEMO_TOOL.secret, now)).toBe('invalid signature');
    expect(oauthSignatureRefusal(url, entries, 'another-secret', now)).toBe('invalid signature');
    expect(oauthSignatureRefusal(`${url}x`, entries, DEMO_TOOL.secret, now)).toBe(
      'invalid signature',
    );
    const later = new Date(now.getTime() + 3_600_000);
    expect(oauthSignatureRefusal(url, entries, DEMO_TOOL.secret, later)).toBe('expired timestamp');
  });

  it('builds the RFC 5849 §3.4.1 base string: method, address, sorted encoded parameters', () => {
    expect(
      signatureBaseString('http://example.com/request?b5=%3D%253D', [
        ['c@', ''],
        ['a2', 'r b'],
        ['oauth_signature', 'ignored'],
      ]),
    ).toBe('POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26b5%3D%253D%25253D%26c%2540%3D');
  });

  it('names the role of an IMS URI or an LTI 1.1 role', () => {
    expect(shortRole(['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'])).toBe(
      'Learner',
    );
    expect(
      shortRole(['http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant']),
    ).toBe('TeachingAssistant');
    expect(shortRole(['urn:lti:role:ims/lis/TeachingAssistant'])).toBe('TeachingAssistant');
  });
});
