import { myOrderReceipt } from '#domain/commerce/my-orders.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { attachment } from '#web/utils/attachment.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/order-receipt-pdf.ts';
import { receiptPdf } from './receipt-pdf.server.ts';

// GET /account/orders/{orderId}/receipt.pdf (issue 20): the receipt as a PDF to download. A page
// route answering a file (web/utils/attachment.server.ts), so another user's order or a
// malformed id is the site's 404 page in the visitor's language.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  const receipt = await myOrderReceipt(context.rc, params.orderId, context.seller);
  const pdf = await receiptPdf(receipt, { locale: context.rc.locale, timeZone: user.timeZone });
  return attachment(pdf, {
    filename: `receipt-${receipt.number}.pdf`,
    contentType: 'application/pdf',
  });
});

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
