import type { z } from 'zod';
import { organisationChoices, type Saved } from '#domain/courses/course-admin-service.ts';
import { parseId } from '#domain/shared/id.ts';
import type { WebContext } from '#server/load-context.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { answerForm } from './answer-form.server.ts';
import { doneOf } from './course-forms.ts';

// Issue 39, Course Manager: the pages that list terms or courses and make new ones. A campus's
// staff work in their organisation; a manager sees every one, filtered by the one picked
// (?org=), and names the one a new term or course is made in.

/** What a list page shows: its rows, and the organisations to filter by or make one in. */
export async function organisationList<Rows>(
  request: Request,
  context: WebContext,
  list: (orgId: number | null) => Promise<Rows>,
) {
  const { scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const orgFilter = parseId(new URL(request.url).searchParams.get('org'));
  const [orgs, rows] = await Promise.all([organisationChoices(context.rc), list(orgFilter)]);
  return {
    orgs,
    storeWide: scope.kind === 'all',
    orgFilter,
    rows,
    done: doneOf(request.url),
    csrfToken: context.csrfToken,
  };
}

/**
 * Makes a term or a course in the organisation the form names (a manager's pick), else in the
 * person's own; none is refused beside the organisation field.
 */
export async function createInOrganisation<T>(
  request: Request,
  context: WebContext,
  schema: z.ZodType<T>,
  create: (input: T & { orgId: number | null }) => Promise<Saved<string>>,
  savedTo: (id: number) => string,
) {
  const { user } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const form = Object.fromEntries(await request.formData());
  const orgId = parseId(form.orgId) ?? (form.orgId === undefined ? user.orgId : null);
  return answerForm(form, schema, (input) => create({ ...input, orgId }), savedTo, {
    refused: orgId === null ? { orgId: 'ops.courses.error.choice' } : undefined,
  });
}
