import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A real SAML 2.0 IdP on 127.0.0.1 for the tests (issue 20): Debian's SimpleSAMLphp
// (`apt-get install simplesamlphp php-cli`, .ci/run installs it), served by `php -S` from its
// www directory with a configuration written here in a temporary directory: an
// exampleauth:UserPass source, our SP as its only remote SP, assertions signed with a key
// made by openssl for the run, a persistent NameID from the `uid` attribute.

export const SIMPLESAMLPHP_WWW = '/usr/share/simplesamlphp/www';

export function simpleSamlPhpInstalled(): boolean {
  return existsSync(path.join(SIMPLESAMLPHP_WWW, 'saml2/idp/SSOService.php')) && hasPhp();
}

function hasPhp(): boolean {
  try {
    execFileSync('php', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export type SamlUser = {
  username: string;
  password: string;
  uid: string;
  mail: string;
  givenName: string;
  sn: string;
};

export type SimpleSamlPhp = {
  /** Its entity id, also where its metadata is. */
  entityId: string;
  ssoUrl: string;
  certificate: string;
  close(): Promise<void>;
};

const php = (value: unknown): string => JSON.stringify(value).replace(/\$/g, '\\$');

/** PHP array literal from JSON-able data (strings, numbers, booleans, arrays, objects). */
function phpValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(phpValue).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `[${Object.entries(value)
      .map(([k, v]) => `${/^\d+$/.test(k) ? k : php(k)} => ${phpValue(v)}`)
      .join(', ')}]`;
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return JSON.stringify(value);
}

export async function startSimpleSamlPhp(options: {
  port: number;
  spEntityId: string;
  acsUrl: string;
  users: SamlUser[];
}): Promise<SimpleSamlPhp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'simplesamlphp-'));
  for (const sub of ['config', 'metadata', 'cert', 'log', 'data', 'tmp', 'sessions']) {
    mkdirSync(path.join(dir, sub));
  }
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=idp'],
      ...['-keyout', path.join(dir, 'cert/idp.key'), '-out', path.join(dir, 'cert/idp.crt')],
    ],
    { stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${options.port}`;
  const entityId = `${base}/saml2/idp/metadata.php`;
  const config = {
    baseurlpath: `${base}/`,
    certdir: `${dir}/cert/`,
    loggingdir: `${dir}/log/`,
    datadir: `${dir}/data/`,
    tempdir: `${dir}/tmp`,
    technicalcontact_name: 'Shelfmark tests',
    technicalcontact_email: 'tests@example.org',
    secretsalt: randomBytes(16).toString('hex'),
    'auth.adminpassword': randomBytes(16).toString('hex'),
    'admin.protectindexpage': true,
    'admin.protectmetadata': false,
    timezone: 'UTC',
    'logging.handler': 'file',
    'logging.logfile': 'simplesamlphp.log',
    'enable.saml20-idp': true,
    'module.enable': { exampleauth: true, core: true, saml: true },
    'store.type': 'phpsession',
    'session.phpsession.savepath': `${dir}/sessions`,
    'session.cookie.secure': false,
    'language.default': 'en',
    'metadata.sources': [{ type: 'flatfile', directory: `${dir}/metadata` }],
  };
  writeFileSync(path.join(dir, 'config/config.php'), `<?php\n$config = ${phpValue(config)};\n`);
  const source: Record<string, unknown> = { 0: 'exampleauth:UserPass' };
  for (const u of options.users) {
    source[`${u.username}:${u.password}`] = {
      uid: [u.uid],
      mail: [u.mail],
      givenName: [u.givenName],
      sn: [u.sn],
    };
  }
  writeFileSync(
    path.join(dir, 'config/authsources.php'),
    `<?php\n$config = ${phpValue({ 'campus-userpass': source })};\n`,
  );
  writeFileSync(
    path.join(dir, 'metadata/saml20-idp-hosted.php'),
    `<?php\n$metadata['__DYNAMIC:1__'] = ${phpValue({
      host: '__DEFAULT__',
      privatekey: 'idp.key',
      certificate: 'idp.crt',
      auth: 'campus-userpass',
      'saml20.sign.assertion': true,
      'saml20.sign.response': false,
    })};\n`,
  );
  writeFileSync(
    path.join(dir, 'metadata/saml20-sp-remote.php'),
    `<?php\n$metadata[${phpValue(options.spEntityId)}] = ${phpValue({
      AssertionConsumerService: options.acsUrl,
      NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      'simplesaml.nameidattribute': 'uid',
      'saml20.sign.assertion': true,
    })};\n`,
  );
  const server: ChildProcess = spawn(
    'php',
    ['-S', `127.0.0.1:${options.port}`, '-t', SIMPLESAMLPHP_WWW],
    {
      env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: path.join(dir, 'config') },
      stdio: 'ignore',
    },
  );
  // Ready when its metadata answers.
  for (let i = 0; i < 100; i += 1) {
    try {
      const response = await fetch(entityId);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    entityId,
    ssoUrl: `${base}/saml2/idp/SSOService.php`,
    certificate: readFileSync(path.join(dir, 'cert/idp.crt'), 'utf8'),
    async close() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
