// Courseware launch (spec 1 §4 "Courseware launch", spec 2 §4 "Courseware launch", spec 2 §7
// "Courseware launch 2.0" and "Launch 1.0 authorize", issue 14): the rules of an LTI 1.3
// resource-link launch with Shelfmark as the platform, and of an LTI 1.1 basic launch. Plain
// data in, plain data out; the service (launch-service.ts) loads, signs and records.

export type LtiVersion = '1.1' | '1.3';
export type SectionRole = 'student' | 'professor' | 'teaching_assistant';

/** Why a launch is refused: a message key the page shows in the panel's footer (spec 1 §4). */
export type LaunchRefusal =
  | 'launch.error.notEntitled'
  | 'launch.error.noTool'
  | 'launch.error.expired'
  | 'launch.error.invalidRequest'
  | 'launch.error.unknownClient'
  | 'launch.error.redirectUri'
  | 'launch.error.otherUser';

/** How long a launch in flight (message hint or cache key) may be used: once, within this. */
export const LAUNCH_HANDLE_SECONDS = 120;
/** Lifetime of an id_token; a retired signing key stays in the JWKS this long and more. */
export const ID_TOKEN_SECONDS = 300;
/** How long a retired key is still published: its last tokens' lifetime plus clock skew. */
export const RETIRED_KEY_SECONDS = ID_TOKEN_SECONDS + 600;

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';

/** IMS LTI 1.3 context roles of a section member (student → Learner, and so on). */
export function ltiRoles(role: SectionRole | null): string[] {
  switch (role) {
    case 'professor':
      return [`${LIS}Instructor`];
    case 'teaching_assistant':
      // The sub-role URI of LTI 1.3 §A.2.2 (Instructor#TeachingAssistant).
      return ['http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant'];
    default:
      return [`${LIS}Learner`];
  }
}

/** The same roles as LTI 1.1 names them (the `roles` parameter, comma-separated). */
export function lti11Roles(role: SectionRole | null): string {
  switch (role) {
    case 'professor':
      return 'Instructor';
    case 'teaching_assistant':
      return 'urn:lti:role:ims/lis/TeachingAssistant';
    default:
      return 'Learner';
  }
}

/** The resource link of a material: stable per section material, or per owned product. */
export function resourceLinkId(input: {
  sectionProductId: number | null;
  productId: number;
}): string {
  return input.sectionProductId !== null
    ? `shelfmark-sp-${input.sectionProductId}`
    : `shelfmark-p-${input.productId}`;
}

export type LaunchSubject = {
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  locale: string;
};

export type LaunchContext = {
  /** The course section: id, label (department, number, section) and title (course name). */
  section: { id: string; label: string; title: string } | null;
  role: SectionRole | null;
  resourceLink: { id: string; title: string };
  returnUrl: string;
};

export type Lti13Tool = {
  clientId: string;
  deploymentId: string;
  launchUrl: string;
  loginUrl: string;
  redirectUris: string[];
};

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';

/** The claims of an LtiResourceLinkRequest id_token (LTI 1.3 core §5). */
export function resourceLinkClaims(input: {
  issuer: string;
  tool: Lti13Tool;
  subject: LaunchSubject;
  context: LaunchContext;
  nonce: string;
  now: Date;
}): Record<string, unknown> {
  const iat = Math.floor(input.now.getTime() / 1000);
  const { subject, context, tool } = input;
  return {
    iss: input.issuer,
    aud: tool.clientId,
    azp: tool.clientId,
    sub: subject.sub,
    iat,
    exp: iat + ID_TOKEN_SECONDS,
    nonce: input.nonce,
    name: subject.name,
    given_name: subject.givenName,
    family_name: subject.familyName,
    email: subject.email,
    locale: subject.locale,
    [`${CLAIM}message_type`]: 'LtiResourceLinkRequest',
    [`${CLAIM}version`]: '1.3.0',
    [`${CLAIM}deployment_id`]: tool.deploymentId,
    [`${CLAIM}target_link_uri`]: tool.launchUrl,
    [`${CLAIM}resource_link`]: context.resourceLink,
    [`${CLAIM}roles`]: ltiRoles(context.role),
    ...(context.section
      ? {
          [`${CLAIM}context`]: {
            id: context.section.id,
            label: context.section.label,
            title: context.section.title,
            type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseSection'],
          },
        }
      : {}),
    [`${CLAIM}launch_presentation`]: {
      document_target: 'window',
      return_url: context.returnUrl,
      locale: subject.locale,
    },
    [`${CLAIM}tool_platform`]: { product_family_code: 'shelfmark', name: 'Shelfmark' },
  };
}

/** The third-party login initiation sent to the tool (LTI 1.3 core §4.1, OIDC). */
export function loginInitiation(input: {
  issuer: string;
  tool: Lti13Tool;
  loginHint: string;
  messageHint: string;
}): Record<string, string> {
  return {
    iss: input.issuer,
    login_hint: input.loginHint,
    target_link_uri: input.tool.launchUrl,
    lti_message_hint: input.messageHint,
    client_id: input.tool.clientId,
    lti_deployment_id: input.tool.deploymentId,
  };
}

export type AuthRequest = {
  scope?: string;
  response_type?: string;
  response_mode?: string;
  prompt?: string;
  client_id?: string;
  redirect_uri?: string;
  login_hint?: string;
  lti_message_hint?: string;
  nonce?: string;
  state?: string;
};

/**
 * Checks the tool's authentication request against the launch it answers (LTI 1.3 core §4.1.1,
 * security framework §5.1.1.2): the OIDC constants, the registered client and redirect URI,
 * the login hint we sent, a nonce. Null when it may be answered with an id_token.
 */
export function authRequestRefusal(
  request: AuthRequest,
  expected: { tool: Lti13Tool | null; loginHint: string },
): LaunchRefusal | null {
  if (
    request.scope !== 'openid' ||
    request.response_type !== 'id_token' ||
    request.response_mode !== 'form_post' ||
    request.prompt !== 'none' ||
    !request.nonce ||
    !request.state ||
    !request.lti_message_hint
  ) {
    return 'launch.error.invalidRequest';
  }
  const tool = expected.tool;
  if (!tool || request.client_id !== tool.clientId) return 'launch.error.unknownClient';
  if (!request.redirect_uri || !tool.redirectUris.includes(request.redirect_uri)) {
    return 'launch.error.redirectUri';
  }
  if (request.login_hint !== expected.loginHint) return 'launch.error.otherUser';
  return null;
}

/** The parameters of an LTI 1.1 basic launch, before OAuth signs them (LTI 1.1 §B). */
export function basicLaunchParams(input: {
  subject: LaunchSubject;
  context: LaunchContext;
  consumerGuid: string;
}): Record<string, string> {
  const { subject, context } = input;
  return {
    lti_message_type: 'basic-lti-launch-request',
    lti_version: 'LTI-1p0',
    resource_link_id: context.resourceLink.id,
    resource_link_title: context.resourceLink.title,
    user_id: subject.sub,
    roles: lti11Roles(context.role),
    lis_person_name_full: subject.name,
    lis_person_name_given: subject.givenName,
    lis_person_name_family: subject.familyName,
    lis_person_contact_email_primary: subject.email,
    ...(context.section
      ? {
          context_id: context.section.id,
          context_label: context.section.label,
          context_title: context.section.title,
          context_type: 'CourseSection',
        }
      : {}),
    launch_presentation_document_target: 'window',
    launch_presentation_return_url: context.returnUrl,
    launch_presentation_locale: subject.locale,
    tool_consumer_info_product_family_code: 'shelfmark',
    tool_consumer_instance_guid: input.consumerGuid,
  };
}
