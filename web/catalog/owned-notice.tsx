import { Link } from 'react-router';
import type { ProductPersonal } from '#web/routes/product.server.ts';

/**
 * The product page's "you have this" panel: owned (until a date) or opened through a course,
 * and the way in (Read Now, the courseware or classroom, My Shelf). Its own component, given
 * `t`, so the server can write it into a logged-in page composed from the stored anonymous one
 * (server/app.ts, decision 043), and a browser without JavaScript sees it too.
 */
export function OwnedNotice({
  t,
  productId,
  hasReaderFile,
  owned,
  until,
  opens,
  classroom,
}: {
  t: (id: string, params?: Record<string, string | number>) => string;
  productId: number;
  hasReaderFile: boolean;
} & Pick<ProductPersonal, 'owned' | 'until' | 'opens' | 'classroom'>) {
  if (!owned && opens === null) return null;
  return (
    <div className="alert alert--success stack-sm">
      <p>
        {owned && until
          ? t('product.ownedUntil', { date: until })
          : t(owned ? 'product.owned' : 'product.throughCourse')}
      </p>
      {opens?.entry === 'read' && !hasReaderFile ? <p>{t('reading.error.noFile')}</p> : null}
      <p className="cluster">
        {opens?.entry === 'read' && hasReaderFile ? (
          // spec 1 §4 Shelf button: what opens leads to reading ('Read Now'); the rule
          // decided it opens, and through which course (issue 14).
          <Link
            to={`/book/read/${productId}/${opens.sectionId ? `?course_id=${opens.sectionId}` : ''}`}
            className="button button--primary"
          >
            {t('reader.readNow')}
          </Link>
        ) : null}
        {opens?.entry === 'launch' ? (
          // Courseware launches from its panel on My Shelf (its tool, or its access
          // code), or from the course page when the course gives it (issue 14).
          <Link
            to={
              owned || opens.sectionId === null
                ? `/shelf?material=${productId}`
                : `/shelf/course-section/${opens.sectionId}`
            }
            className="button button--primary"
          >
            {t('shelf.button.accessCourseware')}
          </Link>
        ) : null}
        {classroom?.canEnter || classroom?.promptForCode ? (
          <Link
            to={
              classroom.canEnter
                ? `/classroom/${productId}/section/${classroom.sectionId}?type=${classroom.asInstructor ? 'instructor' : 'student'}`
                : `/shelf?material=${productId}`
            }
            className="button button--primary"
          >
            {t('shelf.button.accessClassroom')}
          </Link>
        ) : null}
        <Link to="/shelf" className="button button--secondary">
          {t('library.toShelf')}
        </Link>
      </p>
    </div>
  );
}
