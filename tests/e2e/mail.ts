import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

// The mails the e2e server wrote (issue 20): without SMTP_URL the outbox worker writes each as
// an `.eml` file in <DATA_DIR>/outbox/ (server/outbox-worker.ts). Journeys read them as a
// person reads their inbox: by address and subject, then follow the link in the text.

export type Mail = { file: string; to: string; subject: string; text: string };

function outboxDir(): string {
  const dataDir = inject('dataDir');
  if (!dataDir) {
    throw new Error('reading mails needs the server the e2e setup starts, not E2E_BASE_URL');
  }
  return path.join(dataDir, 'outbox');
}

/** Every mail written so far to this address (case-insensitive), oldest first. */
export async function mailsTo(address: string): Promise<Mail[]> {
  const dir = outboxDir();
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
    .sort((a, b) => outboxNumber(a) - outboxNumber(b));
  const mails: Mail[] = [];
  for (const name of names) {
    const mail = parseEml(name, await readFile(path.join(dir, name), 'utf8'));
    if (mail.to.toLowerCase().includes(address.toLowerCase())) mails.push(mail);
  }
  return mails;
}

/** Waits for a mail to this address whose subject matches, written after `after` mails. */
export async function waitForMail(
  address: string,
  subject: string | RegExp,
  options: { after?: number; timeoutMs?: number } = {},
): Promise<Mail> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const found = (await mailsTo(address))
      .slice(options.after ?? 0)
      .filter((mail) =>
        typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject),
      );
    if (found.length > 0) return found[found.length - 1]!;
    if (Date.now() > deadline) {
      throw new Error(`no mail to ${address} with subject ${String(subject)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The path and query of the first link in the mail whose path starts with `prefix`, to open
 * on the journey's own base URL (the mail's origin is the server's PUBLIC_ORIGIN).
 */
export function linkIn(mail: Mail, prefix: string): string {
  for (const match of mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.startsWith(prefix)) return url.pathname + url.search;
  }
  throw new Error(`no link to ${prefix} in the mail "${mail.subject}":\n${mail.text}`);
}

function outboxNumber(name: string): number {
  return Number(/outbox-(\d+)/.exec(name)?.[1] ?? 0);
}

/** A single-part text mail as nodemailer writes it: headers, then the body. */
export function parseEml(file: string, raw: string): Mail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return {
    file,
    to: decodeWords(headers.get('to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: text.replace(/\r\n/g, '\n'),
  };
}

function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([\w-]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
