// The wallet buttons' calls to /api/payments (spec 1 §4 Wallet payment), in the browser.

type ApiError = { errors?: { detail?: string }[] };

/** A JSON:API POST with the CSRF header; resolves null when no answer came back. */
export function postPaymentsApi(
  path: string,
  csrfToken: string,
  body?: unknown,
): Promise<Response | null> {
  return fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      Accept: 'application/vnd.api+json',
      'Content-Type': 'application/vnd.api+json',
      'X-CSRFToken': csrfToken,
    },
    body: body === undefined ? null : JSON.stringify(body),
  }).catch(() => null);
}

/** The server's translated reason for a refused call, or the fallback. */
export async function failureText(response: Response, fallback: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as ApiError | null;
  return body?.errors?.[0]?.detail ?? fallback;
}

/** POST /api/payments: an order for one offering and its payment at the gateway. */
export function createWalletPayment(
  csrfToken: string,
  input: { offeringId: number; idempotencyKey: string; courseId: number | null },
): Promise<Response | null> {
  return postPaymentsApi('/api/payments', csrfToken, {
    data: {
      type: 'payment',
      attributes: {
        offeringId: input.offeringId,
        idempotencyKey: input.idempotencyKey,
        ...(input.courseId ? { courseId: input.courseId } : {}),
      },
    },
  });
}

export type CreatedPayment = {
  data: { id: string; attributes: { amount: number; clientSecret: string } };
};
export type SucceededPayment = { data: { attributes: { redirect: string } } };

/** The success modal says where the shopper is going before the page goes there. */
export function redirectAfterSuccess(path: string): void {
  window.setTimeout(() => window.location.assign(path), 1200);
}
