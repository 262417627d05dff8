// Runs a command against one demo server (scripts/demo-server.ts), named to it in
// DEMO_BASE_URL, then stops the server: CI measures the JavaScript budget and Lighthouse on the
// same server instead of starting one for each (15 s apiece, issue 36). Exits with the command's
// status.
//
//   npx tsx scripts/with-demo-server.ts bash -c 'npm run budget && npm run lighthouse'
import { spawn } from 'node:child_process';
import { startDemoServer } from './demo-server.ts';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx scripts/with-demo-server.ts <command> [arguments...]');
  process.exit(2);
}
const server = await startDemoServer();
let status = 1;
try {
  status = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, DEMO_BASE_URL: server.base },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
} finally {
  await server.stop();
}
process.exit(status);
