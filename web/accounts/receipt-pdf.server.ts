import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import type { Locale } from '#domain/accounts/language.ts';
import { offeringNameWords } from '#domain/catalog/offering-terms.ts';
import type { OrderReceipt } from '#domain/commerce/my-orders.ts';
import { paidWithMessage } from '#domain/commerce/payment-card.ts';
import { RECEIPT_ROW_LABELS, receiptRowValue } from '#domain/commerce/receipt-amounts.ts';
import { formatMoney, translate } from '#i18n/translate.ts';

// The receipt of /account/orders/{id} as a PDF (issue 20): the same facts as the page, in the
// account's language and time zone, on a US Letter page. The standard Helvetica needs no
// embedded font; a character it cannot write (outside Windows-1252) becomes '?'.

const PAGE = { width: 612, height: 792, margin: 56 };

function writable(font: PDFFont): (text: string) => string {
  const known = new Map<string, string>();
  return (text) =>
    Array.from(text.replace(/[\u00a0\u202f\u2009]/g, ' '))
      .map((ch) => {
        let out = known.get(ch);
        if (out === undefined) {
          try {
            font.encodeText(ch);
            out = ch;
          } catch {
            out = '?';
          }
          known.set(ch, out);
        }
        return out;
      })
      .join('');
}

export async function receiptPdf(
  receipt: OrderReceipt,
  options: { locale: Locale; timeZone: string },
): Promise<Uint8Array> {
  const { locale, timeZone } = options;
  const say = (id: string, params?: Record<string, string | number>) =>
    translate(locale, id, params);
  const money = (cents: number) => formatMoney(locale, cents, 'USD');
  const when = (at: Date, time: boolean) =>
    new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      // A time says its zone (the account's): "November 27, 2026 at 11:19 AM EST".
      ...(time ? { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' } : {}),
      timeZone,
    }).format(at);

  const pdf = await PDFDocument.create();
  const title = say('receipt.heading', { number: receipt.number });
  pdf.setTitle(title);
  pdf.setLanguage(locale);
  pdf.setProducer('Shelfmark');
  pdf.setCreationDate(new Date(receipt.placedAt));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const clean = writable(regular);
  let page = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const right = PAGE.width - PAGE.margin;

  const newLineSpace = (height: number) => {
    if (y - height < PAGE.margin) {
      page = pdf.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - PAGE.margin;
    }
    y -= height;
  };
  /** Lines of text no wider than `width`, broken at spaces. */
  const wrap = (text: string, font: PDFFont, size: number, width: number) => {
    const lines: string[] = [];
    let line = '';
    for (const word of clean(text).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(next, size) > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line);
    return lines;
  };
  const text = (value: string, opts: { size?: number; font?: PDFFont; amount?: string } = {}) => {
    const size = opts.size ?? 10;
    const font = opts.font ?? regular;
    const amountWidth = opts.amount ? font.widthOfTextAtSize(clean(opts.amount), size) + 24 : 0;
    const lines = wrap(value, font, size, right - PAGE.margin - amountWidth);
    lines.forEach((line, index) => {
      newLineSpace(size + 4);
      page.drawText(line, { x: PAGE.margin, y, size, font, color: rgb(0, 0, 0) });
      if (opts.amount && index === 0) {
        const amount = clean(opts.amount);
        page.drawText(amount, {
          x: right - font.widthOfTextAtSize(amount, size),
          y,
          size,
          font,
        });
      }
    });
  };
  const gap = (height = 8) => newLineSpace(height);
  const rule = () => {
    gap(6);
    page.drawLine({
      start: { x: PAGE.margin, y },
      end: { x: right, y },
      thickness: 0.5,
      color: rgb(0.6, 0.6, 0.6),
    });
    gap(4);
  };

  text(title, { size: 18, font: bold });
  gap();
  text(say('order.number', { number: receipt.number }));
  text(say('receipt.dateTime', { date: when(new Date(receipt.placedAt), true) }));
  text(say('orders.status', { status: say(`orders.status.${receipt.status}`) }));
  const paidWith = receipt.card ? paidWithMessage(receipt.card) : null;
  text(paidWith ? say(paidWith.key, paidWith.params) : say('receipt.noCard'));
  rule();

  text(say('receipt.store'), { font: bold });
  text(receipt.store.name);
  for (const line of receipt.store.addressLines) text(line);
  text(receipt.store.host);
  if (receipt.store.email) text(say('receipt.email', { email: receipt.store.email }));
  gap();
  const org = receipt.organization;
  if (org) {
    text(say('receipt.organization'), { font: bold });
    text(org.title);
    for (const line of (org.postalAddress ?? '').split('\n').filter(Boolean)) text(line);
    if (org.contactName) text(say('receipt.contact', { name: org.contactName }));
    if (org.phoneNumber) text(say('receipt.phone', { phone: org.phoneNumber }));
    if (org.emailAddress) text(say('receipt.email', { email: org.emailAddress }));
    gap();
  }
  text(say('receipt.buyer'), { font: bold });
  if (receipt.buyer.name) text(receipt.buyer.name);
  text(receipt.buyer.email);
  rule();

  text(say('receipt.item'), { font: bold, amount: say('receipt.amount') });
  for (const item of receipt.items) {
    text(item.title, { amount: money(item.priceCents) });
    text(offeringNameWords(say, item.term), { size: 9 });
    gap(4);
  }
  rule();
  for (const row of receipt.amounts) {
    text(say(RECEIPT_ROW_LABELS[row.key]), {
      font: row.key === 'total' ? bold : regular,
      amount: receiptRowValue(row, money, say),
    });
  }
  if (receipt.refunds.length > 0) {
    rule();
    text(say('orders.refunds'), { font: bold });
    for (const refund of receipt.refunds) {
      text(
        say('orders.refund', {
          amount: money(refund.amountCents),
          date: when(new Date(refund.at), false),
        }),
      );
    }
  }
  return pdf.save();
}
