import { generateSecret, generateURI, verify } from 'otplib';

// TOTP (RFC 6238) as every authenticator app reads it: SHA-1, six digits, 30-second steps.
// A code is accepted one step early or late (clocks drift), and never for a step at or before
// the last one accepted, so a code seen over a shoulder cannot be used again (issue 20).

export const TOTP_PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// address an authenticator app reads from a QR code or a paste. */
export function totpUri(input: { issuer: string; account: string; secret: string }): string {
  return generateURI({ issuer: input.issuer, label: input.account, secret: input.secret });
}

/** The secret in groups of four, as people type it into an app by hand. */
export function groupedSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'replayed' };

export async function checkTotp(input: {
  secret: string;
  code: string;
  now: Date;
  lastUsedStep: number | null;
}): Promise<TotpCheck> {
  if (!/^\d{6}$/.test(input.code)) return { ok: false, reason: 'invalid' };
  const result = await verify({
    secret: input.secret,
    token: input.code,
    epoch: Math.floor(input.now.getTime() / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
  });
  if (!result.valid) return { ok: false, reason: 'invalid' };
  const step = Math.floor(input.now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + result.delta;
  if (input.lastUsedStep !== null && step <= input.lastUsedStep) {
    return { ok: false, reason: 'replayed' };
  }
  return { ok: true, step };
}
