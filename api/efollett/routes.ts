import { partnerHandoffFor } from '#domain/courses/service.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi } from '../errors.ts';

// GET /api/efollett/{rsCourseId}/ (spec 2 §7 Follett-style handoff): the partner store's URL
// and the form fields the browser posts there. Members of the section only.

const RS_COURSE_ID = /^[\w.-]{1,64}$/;

export async function getPartnerHandoff(
  _request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const rsCourseId = params.rsCourseId ?? '';
  if (!RS_COURSE_ID.test(rsCourseId)) return apiError(context, 404, 'error.notFound');
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  const handoff = await partnerHandoffFor(context.rc, rsCourseId);
  return jsonApi({
    data: {
      type: 'efollett-handoff',
      id: rsCourseId,
      attributes: { url: handoff.url, body: handoff.body },
    },
  });
}
