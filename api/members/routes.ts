import { type MemberDocument, type OptOutcome, optIn, optOut } from '#domain/courses/service.ts';
import { parseId } from '#domain/shared/id.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';
import { optInBody, optOutBody } from './validators.ts';

// POST /api/members/{memberId}/opt-out and /opt-in (spec 2 §7 Opt out, Opt in). A member id
// that is not the caller's reads as not found; a refused move answers 403 (may not opt here)
// or 409 (deadline passed, already in that status) with its translated message.

function memberDocument(member: MemberDocument) {
  return {
    data: {
      type: 'Member',
      id: String(member.id),
      attributes: {
        role: member.role,
        optStatus: member.optStatus,
        canUpdateOptStatus: member.canUpdateOptStatus,
        isCourseFee: member.isCourseFee,
        addDropDate: member.addDropDate.toISOString(),
        rsCoursememberId: member.rsCoursememberId,
      },
      relationships: { section: { data: { type: 'CourseSection', id: String(member.sectionId) } } },
    },
  };
}

function respond(context: WebContext, outcome: OptOutcome): Response {
  if (outcome.ok) return jsonApi(memberDocument(outcome.member));
  const status = outcome.refusal.kind === 'forbidden' ? 403 : 409;
  return apiError(context, status, outcome.refusal.messageKey);
}

/** The body's id, when it names one, must be the path's. */
function idMatches(id: string | undefined, memberId: number): boolean {
  return id === undefined || parseId(id) === memberId;
}

export async function postOptOut(
  request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const memberId = parseId(params.memberId);
  if (memberId === null) return apiError(context, 404, 'error.notFound');
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  const parsed = optOutBody.safeParse(await readJson(request));
  if (!parsed.success || !idMatches(parsed.data.data.id, memberId)) {
    return apiError(context, 400, 'error.invalid', undefined, { pointer: '/data' });
  }
  const { selected_reason, message } = parsed.data.data.attributes;
  return respond(
    context,
    await optOut(context.rc, memberId, { reason: selected_reason, message: message ?? '' }),
  );
}

export async function postOptIn(
  request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const memberId = parseId(params.memberId);
  if (memberId === null) return apiError(context, 404, 'error.notFound');
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  // No attributes (spec 2 §7); an empty body is a call without a document.
  const text = await request.clone().text();
  if (text.trim() !== '') {
    const parsed = optInBody.safeParse(await readJson(request));
    if (!parsed.success || !idMatches(parsed.data.data.id, memberId)) {
      return apiError(context, 400, 'error.invalid', undefined, { pointer: '/data' });
    }
  }
  return respond(context, await optIn(context.rc, memberId));
}
