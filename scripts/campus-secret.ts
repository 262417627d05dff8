// Sets an OIDC campus's client secret (issue 20, decision 023), encrypted under LTI_KEY:
//   printf '%s' "$SECRET" | LTI_KEY=… DATABASE_URL=… npx tsx scripts/campus-secret.ts <campusId>
// (an empty input clears it: a public client, PKCE only). The secret is read from standard
// input, never from the command line, so it stays out of shell history and process lists.
import { openDatabase } from '#db/client.ts';
import { refuseIfInUse } from '#db/embedded-lock.ts';
import { setCampusClientSecret } from '#domain/accounts/campus-sign-in-service.ts';

const campusId = Number(process.argv[2]);
const ltiKey = process.env.LTI_KEY;
if (!Number.isInteger(campusId) || campusId < 1) {
  console.error('usage: scripts/campus-secret.ts <campus sign-in id> (secret on standard input)');
  process.exit(2);
}
if (!ltiKey) {
  console.error('LTI_KEY: required (the secret is encrypted under it, as the server reads it)');
  process.exit(2);
}
let secret = '';
for await (const chunk of process.stdin) secret += chunk;
secret = secret.trim();
const database = await openDatabase({
  url: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR ?? './data',
}).catch(refuseIfInUse);
try {
  const done = await setCampusClientSecret(database.db, ltiKey, campusId, secret || null);
  if (!done) {
    console.error(`no OpenID Connect campus sign-in with id ${campusId}`);
    process.exitCode = 1;
  } else {
    console.log(secret ? `client secret of campus ${campusId} stored, encrypted` : 'cleared');
  }
} finally {
  await database.close();
}
