import { coursewareLaunchOption } from '#domain/access/launch-service.ts';
import type { WebContext } from '#server/load-context.ts';
import type { CoursewareLaunchProps } from './courseware-launch.tsx';

/**
 * What a page needs to offer 'Access Courseware' for a courseware (issue 14), or null when no
 * tool is registered for it. The page may then post the launch's first form to the tool.
 */
export async function coursewareLaunchProps(
  context: WebContext,
  request: Request,
  productId: number,
): Promise<Omit<CoursewareLaunchProps, 'title'> | null> {
  const user = context.rc.user;
  if (!user) return null;
  const option = await coursewareLaunchOption(context.rc, productId, new URL(request.url).origin);
  if (!option) return null;
  context.formActions = [...(context.formActions ?? []), option.formOrigin];
  return {
    productId,
    version: option.version,
    sectionId: option.sectionId,
    coursewarePricingId: option.coursewarePricingId,
    userId: user.id,
  };
}
