import { redirect } from 'react-router';
import { Invalid } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import { addFreeBook } from '#domain/shelf/free-book.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/free-book.ts';

// Nothing to show here: the form posts from the product page.
export function loader() {
  return redirect('/');
}

// spec 1 §4 Free book: POST /ajax/book/free/ with productId (and csrfmiddlewaretoken, checked
// by the server), then the library. A visitor is sent to log in first, back to the product.
export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const productId = parseId((await request.formData()).get('productId'));
  if (productId === null) throw new Invalid();
  if (!context.rc.user) {
    throw redirect(`/accounts/login/?next=${encodeURIComponent(`/product-detail/${productId}`)}`);
  }
  await addFreeBook(context.rc, productId);
  return redirect('/library');
});

// The route has no page of its own; a refused add (a bad id, a book that is not free) is the
// site's error page with the reason, in the visitor's language (issue 18).
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
