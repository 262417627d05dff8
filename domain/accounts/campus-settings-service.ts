import { asc, eq, ne } from 'drizzle-orm';
import { campusSignIns } from '#db/schema/campus-sign-in.ts';
import { organizations } from '#db/schema/sites.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import {
  type CampusSettingsForm,
  checkCampusSettings,
  type FieldErrors,
} from './campus-settings.ts';
import type { CampusProtocol } from './campus-sign-in.ts';
import {
  encryptClientSecret,
  forgetCampusConfigurations,
  SAML_ACS_PATH,
} from './campus-sign-in-service.ts';

// Campus sign-in settings for managers (issue 20, decision 023 "Settings"): list the campuses,
// save one from the managers' form (checked by campus-settings.ts, written in one transaction),
// and the addresses a campus's IT registers us with.

/** The path of our SAML service-provider metadata for a campus. */
export const SAML_METADATA_PATH = '/accounts/campus/saml/metadata';

export type CampusSettingsRow = {
  id: number;
  orgId: number;
  orgTitle: string;
  protocol: CampusProtocol;
  emailDomains: string[];
  oidcIssuer: string | null;
  oidcClientId: string | null;
  /** The scopes asked for, space-separated; null: DEFAULT_OIDC_SCOPES. */
  oidcScopes: string | null;
  /** Whether a client secret is stored; the secret itself is never read back. */
  hasClientSecret: boolean;
  samlIdpEntityId: string | null;
  samlSsoUrl: string | null;
  samlSigningCert: string | null;
  samlSpEntityId: string | null;
  emailAttribute: string;
  firstNameAttribute: string;
  lastNameAttribute: string;
  campusIdAttribute: string | null;
};

/**
 * Only managers: whoever sets a campus's e-mail domains decides which existing accounts that
 * campus's identities may link to (campusLinkDecision links a verified address in the campus's
 * domains), so a bookstore manager who set 'gmail.com' could take over accounts.
 */
function requireManagerRole(ctx: RequestContext): void {
  if (!ctx.user?.roles.includes('manager')) throw new Forbidden();
}

export async function campusSettings(ctx: RequestContext): Promise<{
  campuses: CampusSettingsRow[];
  organizations: { id: number; title: string }[];
}> {
  requireManagerRole(ctx);
  const [rows, orgs] = await Promise.all([
    ctx.db
      .select({ campus: campusSignIns, orgTitle: organizations.title })
      .from(campusSignIns)
      .innerJoin(organizations, eq(organizations.id, campusSignIns.orgId))
      .orderBy(asc(organizations.title), asc(campusSignIns.id)),
    ctx.db
      .select({ id: organizations.id, title: organizations.title })
      .from(organizations)
      .orderBy(asc(organizations.title), asc(organizations.id)),
  ]);
  return {
    campuses: rows.map(({ campus, orgTitle }) => ({
      id: campus.id,
      orgId: campus.orgId,
      orgTitle,
      protocol: campus.protocol as CampusProtocol,
      emailDomains: campus.emailDomains,
      oidcIssuer: campus.oidcIssuer,
      oidcClientId: campus.oidcClientId,
      oidcScopes: campus.oidcScopes,
      hasClientSecret: campus.oidcClientSecretCiphertext !== null,
      samlIdpEntityId: campus.samlIdpEntityId,
      samlSsoUrl: campus.samlSsoUrl,
      samlSigningCert: campus.samlSigningCert,
      samlSpEntityId: campus.samlSpEntityId,
      emailAttribute: campus.emailAttribute,
      firstNameAttribute: campus.firstNameAttribute,
      lastNameAttribute: campus.lastNameAttribute,
      campusIdAttribute: campus.campusIdAttribute,
    })),
    organizations: orgs,
  };
}

/** What a campus's IT registers us with: our metadata address and the ACS address. */
export function campusServiceProviderUrls(origin: string, campusId: number) {
  const base = origin.replace(/\/$/, '');
  return {
    metadataUrl: `${base}${SAML_METADATA_PATH}/${campusId}`,
    acsUrl: `${base}${SAML_ACS_PATH}`,
  };
}

/**
 * Saves a campus from the managers' form: a new one (id null) or an existing one. Bad input
 * changes nothing and comes back as a message key per field. The OIDC discovery answers kept
 * in this process are forgotten, so the next sign-in reads the new settings.
 */
export async function saveCampusSettings(
  ctx: RequestContext,
  input: { id: number | null; form: CampusSettingsForm; allowLoopback: boolean },
): Promise<{ ok: true; id: number } | { ok: false; errors: FieldErrors }> {
  requireManagerRole(ctx);
  const result = await ctx.db.transaction(async (tx) => {
    if (input.id !== null) {
      const [existing] = await tx
        .select({ id: campusSignIns.id })
        .from(campusSignIns)
        .where(eq(campusSignIns.id, input.id))
        .for('update');
      if (!existing) throw new NotFound();
    }
    const [orgs, others] = await Promise.all([
      tx.select({ id: organizations.id }).from(organizations),
      tx
        .select({ orgId: campusSignIns.orgId, emailDomains: campusSignIns.emailDomains })
        .from(campusSignIns)
        .where(input.id === null ? undefined : ne(campusSignIns.id, input.id)),
    ]);
    const checked = checkCampusSettings(input.form, {
      allowLoopback: input.allowLoopback,
      organizationIds: orgs.map((o) => o.id),
      otherCampuses: others,
    });
    if (!checked.ok) return checked;
    const s = checked.settings;
    const secret = s.oidc?.secret;
    const values = {
      orgId: s.orgId,
      protocol: s.protocol,
      emailDomains: s.emailDomains,
      emailAttribute: s.emailAttribute,
      firstNameAttribute: s.firstNameAttribute,
      lastNameAttribute: s.lastNameAttribute,
      campusIdAttribute: s.campusIdAttribute,
      oidcIssuer: s.oidc?.issuer ?? null,
      oidcClientId: s.oidc?.clientId ?? null,
      oidcScopes: s.oidc ? s.oidc.scopes.join(' ') : null,
      samlIdpEntityId: s.saml?.idpEntityId ?? null,
      samlSsoUrl: s.saml?.ssoUrl ?? null,
      samlSigningCert: s.saml?.signingCert ?? null,
      samlSpEntityId: s.saml?.spEntityId ?? null,
      // Write-only (as the courseware tools' secrets): a new one replaces it, 'keep' leaves it;
      // a SAML campus has none.
      ...(s.protocol === 'saml' || secret === 'clear'
        ? { oidcClientSecretCiphertext: null }
        : typeof secret === 'object'
          ? { oidcClientSecretCiphertext: encryptClientSecret(ctx.keys.lti, secret.set) }
          : {}),
    };
    if (input.id === null) {
      const [row] = await tx
        .insert(campusSignIns)
        .values(values)
        .returning({ id: campusSignIns.id });
      return { ok: true as const, id: row!.id };
    }
    await tx.update(campusSignIns).set(values).where(eq(campusSignIns.id, input.id));
    return { ok: true as const, id: input.id };
  });
  if (result.ok) forgetCampusConfigurations();
  return result;
}
