import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { productIdentifiers, products } from '#db/schema/catalog.ts';
import { sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import type { AuditValues } from '#domain/operations/audit.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, NotFound } from '#domain/shared/errors.ts';
import { auditChange } from './course-admin-audit.ts';
import { scopedSection, staffOf } from './course-admin-scope.ts';
import { endMembership, revokeSectionGrants } from './membership.ts';
import {
  type MemberRole,
  materialReference,
  memberTerms,
  roleChangeEndsGrants,
} from './section-rules.ts';

// Issue 39, a section's page in the Course Manager: its members (students, professors,
// teaching assistants) and the materials adopted for it (required or optional). Each change is
// one transaction with its audit on the section; the section is found inside the person's scope
// (course-admin-scope.ts), an ended one changes no more.

export type Changed<F extends string> =
  | { ok: true; subject: string }
  | { ok: false; field: F; error: string };

/** The section, found in the person's scope and locked, still running; and where its audit goes. */
async function openSection(ctx: RequestContext, tx: RequestContext['db'], sectionId: number) {
  const { scope, actor } = staffOf(ctx);
  const found = await scopedSection(tx, scope, sectionId, true);
  if (found.closed) throw new Conflict('ops.courses.error.ended');
  const page = { orgId: found.course.orgId, objectType: 'section', objectId: sectionId } as const;
  return { ...found, page, staff: { actor, now: ctx.now } };
}

/**
 * Adds the account with this e-mail to the section in this role. The account must be this
 * organisation's or no organisation's (a campus adds its own people); another campus's account
 * is answered as an unknown address, so nothing tells whether it exists.
 */
export async function addMember(
  ctx: RequestContext,
  sectionId: number,
  input: { email: string; role: MemberRole },
): Promise<Changed<'email'>> {
  const email = input.email.trim().toLowerCase();
  const outcome = await ctx.db.transaction(
    async (tx): Promise<Changed<'email'> & { userId?: number }> => {
      const { section, course, page, staff } = await openSection(ctx, tx, sectionId);
      const [person] = await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          and(
            sql`lower(${users.email}) = ${email}`,
            eq(users.isActive, true),
            or(isNull(users.orgId), eq(users.orgId, course.orgId)),
          ),
        );
      if (!person) return { ok: false, field: 'email', error: 'ops.courses.error.noAccount' };
      const terms = memberTerms(course.courseType, input.role);
      const joined = await tx
        .insert(sectionMembers)
        .values({
          sectionId,
          userId: person.id,
          ...terms,
          addDropDate: section.addDropAt,
          rsCoursememberId: `STAFF-${sectionId}-${person.id}-${ctx.now.getTime()}`,
        })
        .onConflictDoNothing()
        .returning({ id: sectionMembers.id });
      if (joined.length === 0)
        return { ok: false, field: 'email', error: 'ops.courses.error.alreadyMember' };
      await auditChange(tx, staff, page, 'member.add', {
        before: null,
        after: { userId: person.id, email: person.email, ...terms },
      });
      return { ok: true, subject: person.email, userId: person.id };
    },
  );
  // The person's cached account (instructor flags) and shelf are read again.
  if (outcome.ok && outcome.userId) forgetAccounts([outcome.userId]);
  return outcome.ok ? { ok: true, subject: outcome.subject } : outcome;
}

/**
 * Changes a member's role in the section, by the same rule as adding them in that role
 * (memberTerms: a professor or teaching assistant is never on the course fee, a course-fee
 * course's student is). Between studying and teaching, what the section gave under the old role
 * ends (roleChangeEndsGrants); what the person bought stays. Audited before → after.
 */
export async function changeMemberRole(
  ctx: RequestContext,
  sectionId: number,
  input: { memberId: number; role: MemberRole },
): Promise<Changed<'role'>> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const { course, page, staff } = await openSection(ctx, tx, sectionId);
    const [member] = await tx
      .select({
        id: sectionMembers.id,
        userId: sectionMembers.userId,
        role: sectionMembers.role,
        isCourseFee: sectionMembers.isCourseFee,
        email: users.email,
      })
      .from(sectionMembers)
      .innerJoin(users, eq(users.id, sectionMembers.userId))
      .where(and(eq(sectionMembers.id, input.memberId), eq(sectionMembers.sectionId, sectionId)))
      .for('update', { of: sectionMembers });
    if (!member) throw new NotFound();
    if (member.role !== input.role) {
      const terms = memberTerms(course.courseType, input.role);
      await tx.update(sectionMembers).set(terms).where(eq(sectionMembers.id, member.id));
      const ended = roleChangeEndsGrants(member.role, input.role)
        ? await revokeSectionGrants(
            tx,
            [{ userId: member.userId, sectionId }],
            ctx.now,
            'roleChanged',
          )
        : 0;
      const grants = (n: number): AuditValues => (ended > 0 ? { sectionGrants: n } : {});
      const who = { userId: member.userId, email: member.email };
      await auditChange(tx, staff, page, 'member.role', {
        before: { ...who, role: member.role, isCourseFee: member.isCourseFee, ...grants(ended) },
        after: { ...who, ...terms, ...grants(0) },
      });
    }
    return { ok: true as const, subject: member.email, userId: member.userId };
  });
  forgetAccounts([outcome.userId]);
  return { ok: true, subject: outcome.subject };
}

/**
 * Removes a member: their enrolment ends (endMembership: what the section gave goes, purchases
 * stay, the drop is kept for billing and audited), source 'staff'.
 */
export async function removeMember(
  ctx: RequestContext,
  sectionId: number,
  memberId: number,
): Promise<Changed<never>> {
  return ctx.db.transaction(async (tx) => {
    const { staff } = await openSection(ctx, tx, sectionId);
    const [member] = await tx
      .select({ email: users.email })
      .from(sectionMembers)
      .innerJoin(users, eq(users.id, sectionMembers.userId))
      .where(and(eq(sectionMembers.id, memberId), eq(sectionMembers.sectionId, sectionId)));
    if (!member) throw new NotFound();
    await endMembership(tx, staff.actor, { memberId, at: ctx.now, source: 'staff' });
    return { ok: true as const, subject: member.email };
  });
}

/**
 * Adopts a material for the section (required or optional), named by product id or ISBN. A
 * deleted product is not adopted. Campus Favorites' count follows section_products by
 * trigger (migration 0011).
 */
export async function adoptMaterial(
  ctx: RequestContext,
  sectionId: number,
  input: { reference: string; required: boolean },
): Promise<Changed<'reference'>> {
  staffOf(ctx);
  const ref = materialReference(input.reference);
  if (!ref) return { ok: false, field: 'reference', error: 'ops.courses.error.reference' };
  return ctx.db.transaction(async (tx): Promise<Changed<'reference'>> => {
    const { page, staff } = await openSection(ctx, tx, sectionId);
    const [product] =
      ref.kind === 'id'
        ? await tx
            .select({ id: products.id, title: products.title })
            .from(products)
            .where(and(eq(products.id, ref.id), ne(products.status, 'deleted')))
        : await tx
            .select({ id: products.id, title: products.title })
            .from(productIdentifiers)
            .innerJoin(products, eq(products.id, productIdentifiers.productId))
            .where(and(eq(productIdentifiers.value, ref.value), ne(products.status, 'deleted')))
            .orderBy(asc(products.id))
            .limit(1);
    if (!product) return { ok: false, field: 'reference', error: 'ops.courses.error.noProduct' };
    const [{ position } = { position: 0 }] = await tx
      .select({ position: sql<number>`coalesce(max(${sectionProducts.position}) + 1, 0)::int` })
      .from(sectionProducts)
      .where(eq(sectionProducts.sectionId, sectionId));
    const adopted = await tx
      .insert(sectionProducts)
      .values({
        sectionId,
        productId: product.id,
        isRequired: input.required,
        position: Math.min(position, 32_767),
      })
      .onConflictDoNothing()
      .returning({ id: sectionProducts.id });
    if (adopted.length === 0) {
      return { ok: false, field: 'reference', error: 'ops.courses.error.alreadyAdopted' };
    }
    await auditChange(tx, staff, page, 'material.add', {
      before: null,
      after: { productId: product.id, title: product.title, required: input.required },
    });
    return { ok: true, subject: product.title };
  });
}

/**
 * Marks an adopted material required or optional for the section (issue 39: "the materials
 * adopted per section (required / optional)"), after its adoption as at it. Audited before →
 * after; asking for what it already is changes and records nothing.
 */
export async function setMaterialRequired(
  ctx: RequestContext,
  sectionId: number,
  input: { adoptionId: number; required: boolean },
): Promise<Changed<never>> {
  return ctx.db.transaction(async (tx) => {
    const { page, staff } = await openSection(ctx, tx, sectionId);
    const [adopted] = await tx
      .select({
        productId: sectionProducts.productId,
        required: sectionProducts.isRequired,
        title: products.title,
      })
      .from(sectionProducts)
      .innerJoin(products, eq(products.id, sectionProducts.productId))
      .where(
        and(eq(sectionProducts.id, input.adoptionId), eq(sectionProducts.sectionId, sectionId)),
      )
      .for('update', { of: sectionProducts });
    if (!adopted) throw new NotFound();
    if (adopted.required !== input.required) {
      await tx
        .update(sectionProducts)
        .set({ isRequired: input.required })
        .where(eq(sectionProducts.id, input.adoptionId));
      const material = { productId: adopted.productId, title: adopted.title };
      await auditChange(tx, staff, page, 'material.required', {
        before: { ...material, required: adopted.required },
        after: { ...material, required: input.required },
      });
    }
    return { ok: true as const, subject: adopted.title };
  });
}

/** Removes an adopted material from the section (the shelf items it gave stay: bought is kept). */
export async function removeMaterial(
  ctx: RequestContext,
  sectionId: number,
  adoptionId: number,
): Promise<Changed<never>> {
  return ctx.db.transaction(async (tx) => {
    const { page, staff } = await openSection(ctx, tx, sectionId);
    const [row] = await tx
      .delete(sectionProducts)
      .where(and(eq(sectionProducts.id, adoptionId), eq(sectionProducts.sectionId, sectionId)))
      .returning({ productId: sectionProducts.productId, required: sectionProducts.isRequired });
    if (!row) throw new NotFound();
    const [product] = await tx
      .select({ title: products.title })
      .from(products)
      .where(eq(products.id, row.productId));
    await auditChange(tx, staff, page, 'material.remove', {
      before: { productId: row.productId, title: product?.title ?? null, required: row.required },
      after: null,
    });
    return { ok: true as const, subject: product?.title ?? String(row.productId) };
  });
}
