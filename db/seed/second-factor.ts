// The demo's store managers have two-step verification on (issue 20: required for managers
// and bookstore managers) with one known key, so a fresh `npm start` can still sign in as
// them: add the key to any authenticator app, or print the current code with
// `npm run demo:code` (README, "Demo accounts"). Like the demo password, it exists only where
// the demo may be seeded (never production with live payments, server/config.ts).
import type { Queryable } from '#db/client.ts';
import { totpAuthenticators } from '#db/schema/second-factor.ts';
import { sealSecret } from '#domain/accounts/secret-box.ts';

export const DEMO_TOTP_SECRET = 'SHELFMARKDEMOTOTPSECRETKEYMANAGE';

export async function seedDemoSecondFactor(
  db: Queryable,
  input: { ltiKey: string; userIds: number[]; now: Date },
): Promise<void> {
  if (input.userIds.length === 0) return;
  await db.insert(totpAuthenticators).values(
    input.userIds.map((userId) => ({
      userId,
      secretCiphertext: sealSecret(input.ltiKey, DEMO_TOTP_SECRET),
      confirmedAt: input.now,
      createdAt: input.now,
    })),
  );
}
