import { createHash } from 'node:crypto';
import type { LaunchForm } from '#domain/access/launch-service.ts';
import type { Locale } from '#domain/accounts/language.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { translate } from '#i18n/translate.ts';
import type { WebContext } from '#server/load-context.ts';

// The pages of a courseware launch that the browser only passes through: a form to the tool
// that posts itself (spec 2 §7: "A form helper posts hidden fields to a URL"), with a button
// for browsers without scripts, and the page that says why a launch was refused.

const SUBMIT = "document.getElementById('lti-launch').submit();";
const SUBMIT_HASH = `'sha256-${createHash('sha256').update(SUBMIT, 'utf8').digest('base64')}'`;

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The form alone (the launch calls' `html_form`). */
export function launchFormHtml(form: LaunchForm, locale: Locale): string {
  const fields = Object.entries(form.fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
  return `<form id="lti-launch" method="${form.method}" action="${escapeHtml(form.action)}">${fields}<button type="submit">${escapeHtml(translate(locale, 'launch.continue'))}</button></form>`;
}

function page(locale: Locale, title: string, body: string): string {
  return `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}

/** A page whose form posts itself to the tool; its CSP allows that script and that origin. */
export function autoPostResponse(context: WebContext, form: LaunchForm): Response {
  const locale = context.rc.locale;
  context.scriptHashes.push(SUBMIT_HASH);
  const origin = new URL(form.action).origin;
  context.formActions = [...(context.formActions ?? []), origin];
  const title = translate(locale, 'launch.title');
  const body = `<h1>${escapeHtml(title)}</h1>${launchFormHtml(form, locale)}<script>${SUBMIT}</script>`;
  return new Response(page(locale, title, body), {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

/** The values a refusal's message names ({deadline}, {date}). */
function messageParams(error: DomainError): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(error.params ?? {}).filter(
      ([, value]) => typeof value === 'string' || typeof value === 'number',
    ),
  ) as Record<string, string | number>;
}

/** A refused launch as a page, with the reason in the user's language. */
export function refusedResponse(context: WebContext, error: DomainError): Response {
  const locale = context.rc.locale;
  const title = translate(locale, 'launch.failed');
  const reason = translate(locale, error.messageKey, messageParams(error));
  // The way back a refusal names (opted out: the course page to opt back in), else My Shelf.
  const back =
    error.params?.wayBack === 'optBackIn' && typeof error.params.sectionId === 'number'
      ? `<p><a href="/shelf/course-section/${error.params.sectionId}">${escapeHtml(translate(locale, 'access.wayBack.optBackIn'))}</a></p>`
      : '';
  const body = `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(reason)}</p>${back}<p><a href="/shelf/">${escapeHtml(translate(locale, 'library.toShelf'))}</a></p>`;
  return new Response(page(locale, title, body), {
    status: error.status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** Runs a launch step; a domain refusal becomes the refusal page (or JSON {error}). */
export async function launchStep(
  context: WebContext,
  json: boolean,
  run: () => Promise<Response>,
): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (json) {
      return Response.json(
        {
          error: translate(context.rc.locale, error.messageKey, messageParams(error)),
          error_key: error.messageKey,
        },
        { status: error.status, headers: { 'Cache-Control': 'no-store' } },
      );
    }
    return refusedResponse(context, error);
  }
}

/** The origin our launches speak for (iss), and where our own paths are. */
export function originOf(request: Request): string {
  return new URL(request.url).origin;
}
