// Prints the current two-step verification code of the demo managers (manager@demo.test and
// bookstore@demo.test share the demo key, db/seed/second-factor.ts), for a fresh `npm start`
// tried without an authenticator app. Demo only: the key is public.
import { generate } from 'otplib';
import { DEMO_TOTP_SECRET } from '#db/seed/second-factor.ts';

const code = await generate({ secret: DEMO_TOTP_SECRET });
const left = 30 - (Math.floor(Date.now() / 1000) % 30);
process.stdout.write(`${code}  (good for ${left} more seconds, and the next 30)\n`);
