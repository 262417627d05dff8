import { describe, expect, it } from 'vitest';
import {
  authRequestRefusal,
  basicLaunchParams,
  ID_TOKEN_SECONDS,
  loginInitiation,
  ltiRoles,
  resourceLinkClaims,
  resourceLinkId,
} from './courseware-launch.ts';

const tool = {
  clientId: 'client-1',
  deploymentId: 'dep-1',
  launchUrl: 'https://tool.test/launch',
  loginUrl: 'https://tool.test/login',
  redirectUris: ['https://tool.test/launch'],
};
const subject = {
  sub: 'pairwise',
  name: 'Ada Lovelace',
  givenName: 'Ada',
  familyName: 'Lovelace',
  email: 'ada@example.test',
  locale: 'en',
};
const context = {
  section: { id: 'RS-1', label: 'BIO 101 001', title: 'Biology' },
  role: 'teaching_assistant' as const,
  resourceLink: { id: 'shelfmark-sp-7', title: 'Lab' },
  returnUrl: 'https://shelf.test/lti/return/?launch=x',
};
const goodRequest = {
  scope: 'openid',
  response_type: 'id_token',
  response_mode: 'form_post',
  prompt: 'none',
  client_id: 'client-1',
  redirect_uri: 'https://tool.test/launch',
  login_hint: 'pairwise',
  lti_message_hint: 'hint',
  nonce: 'n',
  state: 's',
};

// Who may launch is the one entitlement rule's (domain/access/entitlement.test.ts).

describe('LTI 1.3 resource-link launch (Link 2.0)', () => {
  it('roles: student → Learner, professor → Instructor, TA → TeachingAssistant (IMS URIs)', () => {
    expect(ltiRoles('student')).toEqual([
      'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
    ]);
    expect(ltiRoles('professor')).toEqual([
      'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
    ]);
    expect(ltiRoles('teaching_assistant')).toEqual([
      'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
    ]);
  });

  it('the resource link is stable per section material, else per product', () => {
    expect(resourceLinkId({ sectionProductId: 7, productId: 3 })).toBe('shelfmark-sp-7');
    expect(resourceLinkId({ sectionProductId: null, productId: 3 })).toBe('shelfmark-p-3');
  });

  it('the login initiation carries iss, login_hint, target_link_uri, message hint, client and deployment', () => {
    expect(
      loginInitiation({ issuer: 'https://shelf.test', tool, loginHint: 'lh', messageHint: 'mh' }),
    ).toEqual({
      iss: 'https://shelf.test',
      login_hint: 'lh',
      target_link_uri: 'https://tool.test/launch',
      lti_message_hint: 'mh',
      client_id: 'client-1',
      lti_deployment_id: 'dep-1',
    });
  });

  it('the id_token claims: message type, version, deployment, target, link, roles, context, presentation', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const claims = resourceLinkClaims({
      issuer: 'https://shelf.test',
      tool,
      subject,
      context,
      nonce: 'n',
      now,
    });
    const c = 'https://purl.imsglobal.org/spec/lti/claim/';
    expect(claims).toMatchObject({
      iss: 'https://shelf.test',
      aud: 'client-1',
      sub: 'pairwise',
      nonce: 'n',
      name: 'Ada Lovelace',
      [`${c}message_type`]: 'LtiResourceLinkRequest',
      [`${c}version`]: '1.3.0',
      [`${c}deployment_id`]: 'dep-1',
      [`${c}target_link_uri`]: 'https://tool.test/launch',
      [`${c}resource_link`]: { id: 'shelfmark-sp-7', title: 'Lab' },
      [`${c}context`]: { id: 'RS-1', label: 'BIO 101 001', title: 'Biology' },
      [`${c}launch_presentation`]: {
        document_target: 'window',
        return_url: 'https://shelf.test/lti/return/?launch=x',
      },
    });
    expect(claims.exp).toBe((claims.iat as number) + ID_TOKEN_SECONDS);
  });

  it('the authentication request is answered only when every check holds', () => {
    const expected = { tool, loginHint: 'pairwise' };
    expect(authRequestRefusal(goodRequest, expected)).toBeNull();
    for (const [field, value] of [
      ['scope', 'profile'],
      ['response_type', 'code'],
      ['response_mode', 'query'],
      ['prompt', 'login'],
      ['nonce', ''],
      ['state', undefined],
    ] as const) {
      expect(authRequestRefusal({ ...goodRequest, [field]: value }, expected)).toBe(
        'launch.error.invalidRequest',
      );
    }
    expect(authRequestRefusal({ ...goodRequest, client_id: 'other' }, expected)).toBe(
      'launch.error.unknownClient',
    );
    expect(authRequestRefusal(goodRequest, { ...expected, tool: null })).toBe(
      'launch.error.unknownClient',
    );
    expect(
      authRequestRefusal({ ...goodRequest, redirect_uri: 'https://evil.test/launch' }, expected),
    ).toBe('launch.error.redirectUri');
    expect(authRequestRefusal({ ...goodRequest, login_hint: 'someone-else' }, expected)).toBe(
      'launch.error.otherUser',
    );
  });
});

describe('LTI 1.1 basic launch (Link 1.0)', () => {
  it('carries the message type, version, resource link, user, roles and context', () => {
    expect(basicLaunchParams({ subject, context, consumerGuid: 'shelf.test' })).toMatchObject({
      lti_message_type: 'basic-lti-launch-request',
      lti_version: 'LTI-1p0',
      resource_link_id: 'shelfmark-sp-7',
      user_id: 'pairwise',
      roles: 'urn:lti:role:ims/lis/TeachingAssistant',
      context_id: 'RS-1',
      context_title: 'Biology',
      launch_presentation_return_url: 'https://shelf.test/lti/return/?launch=x',
    });
  });
});
