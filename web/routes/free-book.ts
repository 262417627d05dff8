import { redirect } from 'react-router';
import { parseId } from '#domain/shared/id.ts';
import { addFreeBook } from '#domain/shelf/free-book.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/free-book.ts';

// spec 1 §4 Free book: POST /ajax/book/free/ with productId (and csrfmiddlewaretoken, checked
// by the server), then the library. A visitor is sent to log in first, back to the product.
export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const productId = parseId((await request.formData()).get('productId'));
  if (productId === null) throw new Response(null, { status: 400 });
  if (!context.rc.user) {
    throw redirect(`/accounts/login/?next=${encodeURIComponent(`/product-detail/${productId}`)}`);
  }
  await addFreeBook(context.rc, productId);
  return redirect('/library');
});

export function loader() {
  return redirect('/');
}
