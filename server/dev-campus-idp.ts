import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import {
  DEMO_CAMPUS_CLIENT_ID,
  DEMO_CAMPUS_PASSWORD,
  DEMO_CAMPUS_PEOPLE,
} from '#db/seed/campus.ts';

// A local OpenID provider for the demo campus and the tests (issue 20, decision 023):
// `oidc-provider` (a certified OP) on 127.0.0.1, with a small sign-in page of its own that
// checks the demo password. Never in production: server/config.ts refuses DEV_CAMPUS_IDP_PORT
// there, and the provider's keys and cookies are made anew at each start.

export type CampusPerson = {
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
  studentId: string;
  /** What the provider says of the address (`email_verified`); true unless said. */
  emailVerified?: boolean;
};

export type DevCampusIdp = { issuer: string; close(): Promise<void> };

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

// The provider's own page speaks the language Shelfmark asked for (OIDC's ui_locales).
const WORDS = {
  en: {
    page: 'Campus sign-in',
    intro: 'Sign in with your campus account (a local test provider).',
    wrong: 'The campus e-mail or password is not correct.',
    email: 'Campus e-mail',
    password: 'Password',
    submit: 'Sign in',
  },
  'fr-CA': {
    page: 'Connexion au campus',
    intro: 'Connectez-vous avec votre compte du campus (un fournisseur de test local).',
    wrong: 'Le courriel du campus ou le mot de passe est incorrect.',
    email: 'Courriel du campus',
    password: 'Mot de passe',
    submit: 'Se connecter',
  },
} as const;
type Lang = keyof typeof WORDS;

function langOf(uiLocales: unknown): Lang {
  return typeof uiLocales === 'string' && /^fr\b/i.test(uiLocales.trim()) ? 'fr-CA' : 'en';
}

function page(lang: Lang, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin-top:1rem}input{font:inherit;width:100%;padding:.4rem}
button{font:inherit;margin-top:1.5rem;padding:.5rem 1.25rem}.error{color:#a00000}</style></head>
<body><main>${body}</main></body></html>`;
}

function loginForm(lang: Lang, title: string, uid: string, email: string, error: boolean): string {
  const w = WORDS[lang];
  return page(
    lang,
    w.page,
    `<h1>${escapeHtml(title)}</h1><p>${w.intro}</p>
${error ? `<p class="error" role="alert">${w.wrong}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="login">${w.email}</label><input id="login" name="login" type="email" autocomplete="username" value="${escapeHtml(email)}" required>
<label for="password">${w.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${w.submit}</button></form>`,
  );
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let raw = '';
  for await (const chunk of req) {
    raw += chunk;
    if (raw.length > 10_000) break;
  }
  return new URLSearchParams(raw);
}

function samePassword(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startDevCampusIdp(options: {
  port: number;
  host?: string;
  /** Where Shelfmark may be: each origin's callback is a registered redirect URI. */
  appOrigins: string[];
  clientId?: string;
  people?: readonly CampusPerson[];
  password?: string;
  /** A confidential client (client_secret_basic); without it a public client (PKCE only). */
  clientSecret?: string;
  /** The campus's name on its sign-in page. */
  title?: string;
}): Promise<DevCampusIdp> {
  const title = options.title ?? 'Northfield State University';
  const host = options.host ?? '127.0.0.1';
  const people: readonly CampusPerson[] = options.people ?? DEMO_CAMPUS_PEOPLE;
  const password = options.password ?? DEMO_CAMPUS_PASSWORD;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const issuer = `http://${host}:${port}`;
  // Loaded here, not at the server's start: production never loads the provider at all.
  const { default: OidcProvider } = (await import('oidc-provider')) as { default: typeof Provider };
  const find = (id: string) => people.find((p) => p.sub === id || p.email === id.toLowerCase());
  const provider = new OidcProvider(issuer, {
    clients: [
      {
        client_id: options.clientId ?? DEMO_CAMPUS_CLIENT_ID,
        ...(options.clientSecret
          ? {
              client_secret: options.clientSecret,
              token_endpoint_auth_method: 'client_secret_basic',
            }
          : { token_endpoint_auth_method: 'none' }),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: options.appOrigins.map((o) => `${o}/accounts/campus/oidc/callback`),
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
      // As campuses do (issue 37): the student number only with a scope of the campus's own.
      campus_id: ['student_id'],
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const person = find(id);
      if (!person) return undefined;
      return {
        accountId: person.sub,
        async claims() {
          return {
            sub: person.sub,
            email: person.email,
            email_verified: person.emailVerified ?? true,
            given_name: person.givenName,
            family_name: person.familyName,
            name: `${person.givenName} ${person.familyName}`,
            student_id: person.studentId,
          };
        },
      };
    },
    // A first-party campus app: the student is not asked to consent.
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      // Whatever the campus app asks of the scopes this provider knows (issue 37: campus_id).
      grant.addOIDCScope('openid email profile campus_id');
      await grant.save();
      return grant;
    },
  });
  provider.proxy = false;
  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]{1,100})$/.exec((req.url ?? '').split('?')[0]!);
    if (!match) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name !== 'login') {
          await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
          return;
        }
        const html = (body: string, status = 200) => {
          res.writeHead(status, {
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'no-store',
          });
          res.end(body);
        };
        if (req.method === 'POST') {
          const form = await formBody(req);
          const person = find(form.get('login') ?? '');
          if (person && samePassword(form.get('password') ?? '', password)) {
            await provider.interactionFinished(
              req,
              res,
              { login: { accountId: person.sub } },
              { mergeWithLastSubmission: false },
            );
            return;
          }
          const lang = langOf(details.params.ui_locales);
          html(loginForm(lang, title, details.uid, form.get('login') ?? '', true), 400);
          return;
        }
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
        html(loginForm(langOf(details.params.ui_locales), title, details.uid, hint, false));
      } catch {
        if (!res.headersSent) res.writeHead(400, { 'Content-Type': 'text/plain' });
        res.end('This sign-in has expired: start again from Shelfmark.');
      }
    })();
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
