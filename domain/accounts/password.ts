import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP minimums (19 MiB, 2 passes, 1 lane): about 20 ms here, slow enough
// for guessing, fast enough for a login.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    // Spend the same time on unknown accounts so timing does not reveal which e-mails exist.
    await hash(password, OPTIONS);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
