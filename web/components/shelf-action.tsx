import { Link, useLocation } from 'react-router';
import type { ShelfAction } from '#domain/shelf/shelf-button.ts';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';

/**
 * The one button of a material (spec 1 §4 Shelf button priority) and where it goes: reading,
 * access, the free shelf, the cart, or the course-delivery link.
 */
export function ShelfActionButton({
  action,
  productId,
  title,
  sectionId = null,
  memberId = null,
  offeringId = null,
  classroomView = 'student',
  viaCds = false,
  launchable = false,
}: {
  action: ShelfAction;
  productId: number;
  title: string;
  sectionId?: number | null;
  memberId?: number | null;
  offeringId?: number | null;
  /** Which view of a section's classroom Access Classroom opens (spec 2 §4 Classroom). */
  classroomView?: 'instructor' | 'student';
  /** Start Reading goes through the course-delivery link of a CDS organisation (issue 14). */
  viaCds?: boolean;
  /** Courseware with a registered LTI tool: Access Courseware launches it (issue 14). */
  launchable?: boolean;
}) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const { pathname, search } = useLocation();
  const label = t(`shelf.button.${action}`);
  const described = t('shelf.button.of', { action: label, title });
  const course = sectionId ? `?course_id=${sectionId}` : '';
  const link = (to: string) => (
    <Link to={to} className="button button--primary" aria-label={described}>
      {label}
    </Link>
  );
  switch (action) {
    case 'read':
      return link(`/book/read/${productId}/${course}`);
    case 'accessCourseware':
      // A section's courseware with a registered tool launches in a new tab (spec 1 §4
      // Courseware launch); otherwise the material's panel holds its access code.
      return launchable && sectionId ? (
        <a
          href={`/lti/launch/?courseware_id=${productId}&section_id=${sectionId}`}
          target="_blank"
          rel="noopener"
          className="button button--primary"
          aria-label={t('shelf.button.newTab', { action: described })}
        >
          {label}
        </a>
      ) : (
        link(`/shelf?material=${productId}`)
      );
    case 'accessClassroom':
      // A section's classroom; from My Shelf, the material's panel (its section or prompt).
      return link(
        sectionId
          ? `/classroom/${productId}/section/${sectionId}?type=${classroomView}`
          : `/shelf?material=${productId}`,
      );
    case 'viewCart':
      return link('/cart/');
    case 'startReading':
      // spec 1 §4: Start Reading launches the course-delivery link (a CDS organisation's);
      // elsewhere the course fee opens the reader through the course (issue 14).
      return link(
        viaCds && memberId
          ? `/cds_book_read/${productId}/?coursemember_id=${memberId}`
          : `/book/read/${productId}/${course}`,
      );
    case 'openCollection':
      return link(`/collection/${productId}`);
    case 'acquireCode':
      return (
        <form method="post" action={`/shelf/course-section/${sectionId}`}>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
          <input type="hidden" name="intent" value="acquire" />
          <input type="hidden" name="productId" value={productId} />
          <button type="submit" className="button button--primary" aria-label={described}>
            {label}
          </button>
        </form>
      );
    case 'addToShelf':
      return (
        <form method="post" action="/ajax/book/free/">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
          <input type="hidden" name="productId" value={productId} />
          <button type="submit" className="button button--primary" aria-label={described}>
            {label}
          </button>
        </form>
      );
    case 'addToCart':
      return (
        <form method="post" action="/cart">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="offeringId" value={offeringId ?? ''} />
          {sectionId ? <input type="hidden" name="courseId" value={sectionId} /> : null}
          <input type="hidden" name="next" value={pathname + search} />
          <button
            type="submit"
            className="button button--primary"
            aria-label={described}
            disabled={offeringId === null}
          >
            {label}
          </button>
        </form>
      );
  }
}
