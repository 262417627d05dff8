import { data, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { confirmSectionCode } from '#domain/access/classroom.ts';
import { NOTE_MAX_LENGTH } from '#domain/access/classroom-note.ts';
import {
  addClassroomNote,
  classroomPage,
  deleteClassroomNote,
  editClassroomNote,
} from '#domain/access/classroom-view.ts';
import { Invalid } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { MaterialTile } from '#web/components/material-tile.tsx';
import { ShelfActionButton } from '#web/components/shelf-action.tsx';
import { idField } from '#web/forms/fields.ts';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/classroom.ts';
import { ClassroomNotes } from './classroom-notes.tsx';
import { JoinedList } from './joined-list.tsx';
import { SectionCodeForm } from './section-code-form.tsx';

// The field is longer than a note may be, so that a long note hears the note's own message.
const noteBody = z.string().max(NOTE_MAX_LENGTH * 4);

const ClassroomForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('section-code'), code: z.string().max(100) }),
  z.object({ intent: z.literal('add-note'), body: noteBody }),
  z.object({ intent: z.literal('edit-note'), noteId: idField, body: noteBody }),
  z.object({ intent: z.literal('delete-note'), noteId: idField }),
]);

export type ClassroomActionData = {
  sectionCodeError?: string;
  /** The form the error belongs to: 'new', or the id of the note being edited. */
  noteError?: { form: string; messageKey: string };
};

function idsOf(params: Route.LoaderArgs['params']) {
  const productId = parseId(params.id);
  const sectionId = parseId(params.sectionId);
  if (productId === null || sectionId === null) throw data(null, { status: 404 });
  return { productId, sectionId };
}

// /classroom/{productId}/section/{sectionId}?type=instructor|student (spec 2 §4 Classroom;
// issue 14): the section's instructors enter the instructor view, a student with that
// section's confirmed code the student view, an owner without a code gets the prompt, anyone
// else a 403 with the reason. classroomPage (domain/access) decides; this page renders.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  const type = new URL(request.url).searchParams.get('type');
  const page = await classroomPage(context.rc, {
    ...idsOf(params),
    asked: type === 'instructor' || type === 'student' ? type : null,
  });
  const { room } = page;
  const common = {
    classroom: room.classroom,
    section: {
      id: room.section.id,
      courseName: room.section.courseName,
      title: sectionTitle({
        department: room.section.department,
        courseNumber: room.section.courseNumber,
        courseCode: room.section.courseCode,
        sectionNumber: room.section.number,
      }),
    },
    timeZone: user.timeZone,
  };
  if (page.kind === 'prompt') return { ...common, kind: 'prompt' as const };
  return {
    ...common,
    kind: 'enter' as const,
    view: page.view,
    memberId: page.memberId,
    materials: page.materials,
    notes: page.notes.map((note) => ({
      ...note,
      createdAt: note.createdAt.toISOString(),
      updatedAt: note.updatedAt.toISOString(),
    })),
    joined:
      page.joined?.map((join) => ({ ...join, joinedAt: join.joinedAt?.toISOString() ?? null })) ??
      null,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const room = idsOf(params);
  const parsed = ClassroomForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<ClassroomActionData>(
      { noteError: { form: 'new', messageKey: 'error.invalid' } },
      { status: 400 },
    );
  }
  const form = parsed.data;
  const here = `/classroom/${room.productId}/section/${room.sectionId}`;
  try {
    switch (form.intent) {
      case 'section-code':
        await confirmSectionCode(context.rc, { ...room, code: form.code });
        return redirect(`${here}?type=student`);
      case 'add-note':
        await addClassroomNote(context.rc, { ...room, body: form.body });
        break;
      case 'edit-note':
        await editClassroomNote(context.rc, { ...room, noteId: form.noteId, body: form.body });
        break;
      case 'delete-note':
        await deleteClassroomNote(context.rc, { ...room, noteId: form.noteId });
        break;
    }
  } catch (error) {
    if (error instanceof Invalid) {
      return data<ClassroomActionData>(
        form.intent === 'section-code'
          ? { sectionCodeError: error.messageKey }
          : {
              noteError: {
                form: form.intent === 'edit-note' ? String(form.noteId) : 'new',
                messageKey: error.messageKey,
              },
            },
        { status: 400 },
      );
    }
    throw error;
  }
  return redirect(`${here}?type=instructor#notes`);
});

export default function ClassroomPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<ClassroomActionData>();
  const t = useT();
  const langOf = useContentLang();
  const own = langOf(page.classroom.languageCode);
  const sectionName = sectionTitleText(t, page.section.title);
  return (
    <div className="stack-lg classroom">
      <p>
        <Link to="/shelf" className="back-link">
          <span aria-hidden="true">←</span> {t('section.back')}
        </Link>
      </p>
      <header className="stack-sm">
        {page.kind === 'enter' ? <p className="pill">{t(`classroom.view.${page.view}`)}</p> : null}
        <h1 {...own}>{page.classroom.title}</h1>
        <p className="product__subtitle">
          {t('classroom.section', { section: sectionName, course: page.section.courseName })}
        </p>
      </header>
      {page.kind === 'prompt' ? (
        <SectionCodeForm
          productId={page.classroom.productId}
          error={result?.sectionCodeError ?? null}
        />
      ) : (
        <>
          <section className="stack" aria-labelledby="classroom-materials">
            <h2 id="classroom-materials">{t('classroom.materials')}</h2>
            {page.materials.length === 0 ? (
              <p className="empty-state">{t('classroom.materials.none')}</p>
            ) : (
              <ul className="shelf-grid">
                {page.materials.map((material) => (
                  <MaterialTile
                    key={material.productId}
                    productId={material.productId}
                    cover={material.cover}
                    productType={material.productType}
                    inCart={false}
                    title={
                      <Link
                        to={`/product-detail/${material.productId}`}
                        {...langOf(material.languageCode)}
                      >
                        {material.title}
                      </Link>
                    }
                    subline={material.publisher}
                    action={
                      material.action ? (
                        <ShelfActionButton
                          action={material.action}
                          productId={material.productId}
                          title={material.title}
                          sectionId={page.section.id}
                          memberId={page.memberId}
                          offeringId={material.offeringId}
                        />
                      ) : null
                    }
                  />
                ))}
              </ul>
            )}
          </section>
          <ClassroomNotes
            notes={page.notes}
            timeZone={page.timeZone}
            canWrite={page.view === 'instructor'}
            error={result?.noteError ?? null}
          />
          {page.joined ? <JoinedList joined={page.joined} timeZone={page.timeZone} /> : null}
        </>
      )}
    </div>
  );
}

// A refused visitor's page is titled by the error boundary.
export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData ? pageMeta(matches, 'classroom.pageTitle', { name: loaderData.classroom.title }) : [];
