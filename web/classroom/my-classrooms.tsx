import { data, Link, useLoaderData } from 'react-router';
import { taughtClassrooms } from '#domain/access/classroom.ts';
import { canOpenMenuItem } from '#domain/accounts/navigation.ts';
import { navigationFlags } from '#domain/accounts/service.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/my-classrooms.ts';

// /manage/my-classrooms (spec 1 §2 user menu: My Classrooms, for instructors of classrooms):
// each classroom the user teaches, by section, with how many students joined and the way in.
// Open to those the menu shows it to, as every gated menu page (manage-tool.tsx).
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  if (!canOpenMenuItem(navigationFlags(user, context.rc.site), 'myClassrooms')) {
    throw data(null, { status: 403 });
  }
  const classrooms = await taughtClassrooms(context.rc);
  return {
    classrooms: classrooms.map((room) => ({
      ...room,
      section: sectionTitle({
        department: room.department,
        courseNumber: room.courseNumber,
        courseCode: room.courseCode,
        sectionNumber: room.sectionNumber,
      }),
    })),
  };
});

export default function MyClassroomsPage() {
  const { classrooms } = useLoaderData<typeof loader>();
  const t = useT();
  const langOf = useContentLang();
  return (
    <section className="stack-lg" aria-labelledby="my-classrooms">
      <h1 id="my-classrooms">{t('menu.myClassrooms')}</h1>
      {classrooms.length === 0 ? (
        <p className="empty-state">{t('classroom.mine.none')}</p>
      ) : (
        <ul className="course-tray">
          {classrooms.map((room) => {
            const section = sectionTitleText(t, room.section);
            return (
              <li key={`${room.sectionId}-${room.productId}`} className="course-card stack-sm">
                <h2 className="course-card__title" {...langOf(room.languageCode)}>
                  {room.title}
                </h2>
                <p>{t('classroom.section', { section, course: room.courseName })}</p>
                <p className="form-hint">{t('classroom.mine.joined', { count: room.joined })}</p>
                <Link
                  to={`/classroom/${room.productId}/section/${room.sectionId}?type=instructor`}
                  className="button button--primary"
                  aria-label={t('classroom.mine.enter', { name: room.title, section })}
                >
                  {t('shelf.button.accessClassroom')}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'menu.myClassrooms');
