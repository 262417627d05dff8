import { redirect } from 'react-router';
import { addFreeBook } from '#domain/shelf/free-book.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/free-book.ts';

const ID = /^[1-9]\d{0,9}$/;

// spec 1 §4 Free book: POST /ajax/book/free/ with productId (and csrfmiddlewaretoken, checked
// by the server), then the library. A visitor is sent to log in first, back to the product.
export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const raw = (await request.formData()).get('productId');
  if (typeof raw !== 'string' || !ID.test(raw) || Number(raw) > 2_147_483_647) {
    throw new Response(null, { status: 400 });
  }
  if (!context.rc.user) {
    throw redirect(`/accounts/login/?next=${encodeURIComponent(`/product-detail/${raw}`)}`);
  }
  await addFreeBook(context.rc, Number(raw));
  return redirect('/library');
});

export function loader() {
  return redirect('/');
}
