import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import { classroomNotes } from '#db/schema/classroom.ts';
import { sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { coverVersion } from '#domain/catalog/cover-version.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import { courseSectionView } from '#domain/shelf/course-section.ts';
import { activeOwnership } from '#domain/shelf/ownership.ts';
import { dayIn } from '#domain/shelf/sections.ts';
import type { ShelfAction } from '#domain/shelf/shelf-button.ts';
import { type ClassroomView, type SectionClassroom, sectionClassroom } from './classroom.ts';
import { noteProblem, noteText } from './classroom-note.ts';

// The classroom of one section (issue 14, Classroom; spec 2 §4 "section/{id}?type=instructor
// or student"): the section's materials in the classroom's order, the instructor's notes to
// the class, and, for its instructors, who has joined. Who gets in is sectionClassroom's door
// (classroom.ts); every write here asks it again.

export type ClassroomMaterial = {
  productId: number;
  title: string;
  languageCode: string;
  productType: string;
  publisher: string;
  /** The cover's version, for its addresses (domain/catalog/cover-version.ts). */
  cover: string;
  /** The section's own button for this member (course-section.ts); null when none shows. */
  action: ShelfAction | null;
  offeringId: number | null;
};

export type ClassroomNote = {
  id: number;
  body: string;
  authorName: string;
  createdAt: Date;
  updatedAt: Date;
};

export type ClassroomJoin = { userId: number; name: string; email: string; joinedAt: Date | null };

export type ClassroomPage =
  | { kind: 'prompt'; room: SectionClassroom }
  | {
      kind: 'enter';
      view: ClassroomView;
      room: SectionClassroom;
      /** The section member's id, for buttons that name it (Start Reading). */
      memberId: number | null;
      materials: ClassroomMaterial[];
      notes: ClassroomNote[];
      /** Instructor view only: who confirmed this section's code, first joined first. */
      joined: ClassroomJoin[] | null;
    };

/** The page, or Forbidden with the door's reason. */
export async function classroomPage(
  ctx: RequestContext,
  input: { productId: number; sectionId: number; asked: ClassroomView | null },
): Promise<ClassroomPage> {
  const room = await sectionClassroom(ctx, input);
  const { door } = room;
  if (door.kind === 'refused') throw new Forbidden(door.reason);
  if (door.kind === 'prompt') return { kind: 'prompt', room };
  const [section, notes, joined] = await Promise.all([
    sectionMaterials(ctx, room),
    classroomNotesOf(ctx, room),
    door.view === 'instructor' ? joinedMembers(ctx, room) : Promise.resolve(null),
  ]);
  return { kind: 'enter', view: door.view, room, ...section, notes, joined };
}

/**
 * The section's materials in the classroom's order (section_products position), the classroom
 * itself left out. A member gets the section's own buttons, computed by the course-section
 * page's rule; someone in the classroom by its code alone sees the list without buttons.
 */
async function sectionMaterials(
  ctx: RequestContext,
  room: SectionClassroom,
): Promise<{ memberId: number | null; materials: ClassroomMaterial[] }> {
  const listed = await ctx.db
    .select({
      productId: products.id,
      title: products.title,
      languageCode: products.languageCode,
      productType: products.productType,
      publisher: products.publisher,
      cover: coverVersion,
    })
    .from(sectionProducts)
    .innerJoin(products, eq(products.id, sectionProducts.productId))
    .where(
      and(
        eq(sectionProducts.sectionId, room.section.id),
        ne(sectionProducts.productId, room.classroom.productId),
        ne(products.status, 'deleted'),
      ),
    )
    .orderBy(asc(sectionProducts.position), asc(sectionProducts.id));
  if (!room.isMember) {
    return {
      memberId: null,
      materials: listed.map((m) => ({ ...m, action: null, offeringId: null })),
    };
  }
  const view = await courseSectionView(ctx, room.section.id, dayIn(ctx.now, ctx.user!.timeZone));
  const buttons = new Map(view.materials.map((m) => [m.productId, m]));
  return {
    memberId: view.section.memberId,
    materials: listed.map((m) => ({
      ...m,
      action: buttons.get(m.productId)?.action ?? null,
      offeringId: buttons.get(m.productId)?.offeringId ?? null,
    })),
  };
}

/** The notes of this section's classroom, newest first. */
async function classroomNotesOf(
  ctx: RequestContext,
  room: SectionClassroom,
): Promise<ClassroomNote[]> {
  const rows = await ctx.db
    .select({
      id: classroomNotes.id,
      body: classroomNotes.body,
      firstName: users.firstName,
      lastName: users.lastName,
      createdAt: classroomNotes.createdAt,
      updatedAt: classroomNotes.updatedAt,
    })
    .from(classroomNotes)
    .innerJoin(users, eq(users.id, classroomNotes.authorUserId))
    .where(
      and(
        eq(classroomNotes.sectionId, room.section.id),
        eq(classroomNotes.productId, room.classroom.productId),
      ),
    )
    .orderBy(desc(classroomNotes.createdAt), desc(classroomNotes.id));
  return rows.map(({ firstName, lastName, ...note }) => ({
    ...note,
    authorName: `${firstName} ${lastName}`.trim(),
  }));
}

/** Who confirmed this section's code for this classroom and still holds it. */
async function joinedMembers(
  ctx: RequestContext,
  room: SectionClassroom,
): Promise<ClassroomJoin[]> {
  const rows = await ctx.db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      joinedAt: ownerships.sectionCodeConfirmedAt,
    })
    .from(ownerships)
    .innerJoin(users, eq(users.id, ownerships.userId))
    .where(
      and(
        eq(ownerships.productId, room.classroom.productId),
        eq(ownerships.classroomSectionId, room.section.id),
        eq(ownerships.isSectionCodeConfirmed, true),
        activeOwnership(ctx.now),
      ),
    )
    .orderBy(asc(ownerships.sectionCodeConfirmedAt), asc(users.id));
  return rows.map(({ firstName, lastName, ...join }) => ({
    ...join,
    name: `${firstName} ${lastName}`.trim(),
  }));
}

type Room = { productId: number; sectionId: number };

/** The section's instructors alone write notes; anyone else is refused with the reason. */
async function requireInstructor(ctx: RequestContext, room: Room): Promise<SectionClassroom> {
  const found = await sectionClassroom(ctx, { ...room, asked: 'instructor' });
  if (found.door.kind !== 'enter' || found.door.view !== 'instructor') {
    throw new Forbidden('classroom.note.error.notInstructor');
  }
  return found;
}

function validNote(raw: string): string {
  const problem = noteProblem(raw);
  if (problem) throw new Invalid(problem);
  return noteText(raw);
}

export async function addClassroomNote(
  ctx: RequestContext,
  input: Room & { body: string },
): Promise<{ id: number }> {
  const room = await requireInstructor(ctx, input);
  const body = validNote(input.body);
  const [note] = await ctx.db
    .insert(classroomNotes)
    .values({
      sectionId: room.section.id,
      productId: room.classroom.productId,
      authorUserId: ctx.user!.id,
      body,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: classroomNotes.id });
  return note!;
}

/** A note of this section's classroom; another section's note id is not found here. */
function noteOf(input: Room & { noteId: number }) {
  return and(
    eq(classroomNotes.id, input.noteId),
    eq(classroomNotes.sectionId, input.sectionId),
    eq(classroomNotes.productId, input.productId),
  );
}

export async function editClassroomNote(
  ctx: RequestContext,
  input: Room & { noteId: number; body: string },
): Promise<void> {
  await requireInstructor(ctx, input);
  const body = validNote(input.body);
  const updated = await ctx.db
    .update(classroomNotes)
    .set({ body, updatedAt: ctx.now })
    .where(noteOf(input))
    .returning({ id: classroomNotes.id });
  if (updated.length === 0) throw new NotFound('classroom.note.error.gone');
}

export async function deleteClassroomNote(
  ctx: RequestContext,
  input: Room & { noteId: number },
): Promise<void> {
  await requireInstructor(ctx, input);
  const deleted = await ctx.db
    .delete(classroomNotes)
    .where(noteOf(input))
    .returning({ id: classroomNotes.id });
  if (deleted.length === 0) throw new NotFound('classroom.note.error.gone');
}
