import { PDFDict, PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import { OFFLINE_PAGES_KEY } from './offline.ts';

// The copy of a PDF a device keeps for reading offline (issue 16, spec 1 §3 `offlinePercent`):
// the pages of the book's offline share as the publisher made them, and every other page blank
// at its own size, so the copy has the book's pages in their places (page 40 is still page 40;
// a highlight's page, the saved place and Go to page keep their meaning) and nothing more of
// the book than the share. Only the objects the kept pages use are copied (pdf-lib's
// copyPages): the other pages' text, pictures and fonts are not in the file. The copy names the
// pages it holds in its document information (OFFLINE_PAGES_KEY), so the reader can tell a
// page not kept from a page the publisher left blank.

/** A PDF of `data`'s pages in order, those in `keep` (from 0) whole, the others blank. */
export async function pdfWithPagesKept(
  data: Uint8Array,
  keep: readonly number[],
): Promise<Uint8Array> {
  const source = await PDFDocument.load(data, { updateMetadata: false });
  const copy = await PDFDocument.create({ updateMetadata: false });
  const pages = source.getPages();
  const kept = new Set(keep.filter((index) => index >= 0 && index < pages.length));
  const copied = await copy.copyPages(
    source,
    [...kept].sort((a, b) => a - b),
  );
  let next = 0;
  pages.forEach((page, index) => {
    if (kept.has(index)) {
      copy.addPage(copied[next++]!);
      return;
    }
    const { width, height } = page.getSize();
    copy.addPage([width, height]).setRotation(page.getRotation());
  });
  copy.setProducer('Shelfmark');
  const info = copy.context.lookup(copy.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of(OFFLINE_PAGES_KEY), PDFString.of([...kept].sort((a, b) => a - b).join(',')));
  return copy.save();
}
