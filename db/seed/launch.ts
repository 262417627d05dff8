import type { Queryable } from '#db/client.ts';
import { ltiTools } from '#db/schema/launch.ts';
import { DEMO_TOOL } from '#domain/access/demo-tool.ts';
import { encryptSecret } from '#domain/access/lti-secrets.ts';

/**
 * The demo tool in the registry (issue 14): the course-fee student's section courseware
 * (poolCourseware, bio001) over LTI 1.3, the student's own courseware and chem001's over
 * LTI 1.1. Paths are on our own origin, so the demo launches wherever the server runs.
 */
export async function seedDemoTools(
  db: Queryable,
  input: { ltiKey: string; products: { lti13: number; lti11: number[] } },
): Promise<void> {
  await db.insert(ltiTools).values([
    {
      name: DEMO_TOOL.name13,
      productId: input.products.lti13,
      ltiVersion: '1.3',
      launchUrl: DEMO_TOOL.launchPath13,
      clientId: DEMO_TOOL.clientId,
      deploymentId: DEMO_TOOL.deploymentId,
      loginUrl: DEMO_TOOL.loginPath,
      redirectUris: [DEMO_TOOL.launchPath13],
    },
    ...input.products.lti11.map((productId) => ({
      name: DEMO_TOOL.name11,
      productId,
      ltiVersion: '1.1',
      launchUrl: DEMO_TOOL.launchPath11,
      consumerKey: DEMO_TOOL.consumerKey,
      secretCiphertext: encryptSecret(input.ltiKey, DEMO_TOOL.secret),
    })),
  ]);
}
