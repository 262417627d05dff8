import type { Via } from '#domain/access/entitlement.ts';
import type { AccessWay } from '#domain/analytics/access-through.ts';
import type { BookLanguage } from './book-language.ts';
import type { RefusalReason } from './drm.ts';
import type { TocEntry } from './epub-publication.ts';
import type { PrintPages } from './print-pages.ts';

export type { BookLanguage, TocEntry };

/** How a reader was let in: the ownership on their shelf, or their CDS section membership. */
/** The course a reading route names: /cds_book_read/'s member, /book/read/'s course_id. */
export type ReadingVia = { courseMemberId: number | null; courseSectionId?: number | null };

export type ReadingGrant = {
  /** Through what (domain/access/entitlement.ts). */
  via: Via;
  /** When access ends (the book closes then); null: no end. */
  expiresAt: Date | null;
  /** The section it comes through, or null for an ownership. */
  sectionId: number | null;
};

export type ReaderDrm = {
  /** Shown percentages (rounded, null when not above 0: spec 1 §5, spec 2 §9). */
  offlinePercent: number | null;
  copyPercent: number | null;
  printPercent: number | null;
  copy: { limit: number; used: number };
  /** Pages, in the book's print pages (`unit`, print-pages.ts), of which it has `pages`. */
  print: { limit: number; used: number; pages: number; unit: PrintPages['unit'] };
};

export type ReaderPart = {
  index: number;
  title: string;
  html: string;
  /** A pre-paginated page's size in CSS pixels (issue 16); null for reflowable text. */
  page: { width: number; height: number } | null;
  /** The side of a two-page spread the page asks for, if it does. */
  side: 'left' | 'right' | 'center' | null;
};

export type ReaderView = {
  product: { id: number; title: string; authors: string };
  /** The language the book's text is in (for its `lang` and `dir`), when known. */
  language: BookLanguage | null;
  grant: ReadingGrant;
  format: 'epub' | 'pdf';
  file: { id: number };
  /** EPUB: spine items; PDF: pages. */
  partCount: number;
  partTitles: string[];
  /** EPUB: the publisher's styling, sanitised and scoped (book-css.ts); '' when none. */
  bookCss: string;
  /**
   * When two pre-paginated pages share the screen (EPUB 3 `rendition:spread`); 'none' for a
   * book without fixed pages.
   */
  spread: 'none' | 'landscape' | 'both' | 'auto';
  /** The parts two at a time where a spread shows them (fixed-spreads.ts); [] without fixed pages. */
  spreads: number[][];
  toc: TocEntry[];
  /** The saved place, or the start. */
  position: { part: number; progression: number };
  /** EPUB: the part to show first, rendered; null for a PDF. */
  part: ReaderPart | null;
  drm: ReaderDrm;
  /** The pages the book prints in, and where each starts (the reader prints what was allowed). */
  printPages: PrintPages;
  courseSectionId: number | null;
};

export type SearchHit = {
  part: number;
  /** Which occurrence in its part (from 0), so the browser can find it in the text. */
  occurrence: number;
  before: string;
  match: string;
  after: string;
};

/** A copy or print counted or refused; `used` is the count now, for the reader to show. */
export type AllowanceOutcome =
  | { allowed: true; kind: 'copy' | 'print'; amount: number; used: number; limit: number }
  | {
      allowed: false;
      kind: 'copy' | 'print';
      reason: RefusalReason;
      remaining: number;
      used: number;
      limit: number;
    };

export type SectionAnalytics = {
  section: {
    id: number;
    department: string;
    courseNumber: string;
    courseCode: string | null;
    number: string | null;
  };
  studentCount: number;
  materials: {
    productId: number;
    title: string;
    productType: string;
    /** The students who can open it now, and through what (issue 38). */
    access: { total: number; byWay: Record<AccessWay, number> };
    readers: number;
    opens: number;
    lastOpenedAt: Date | null;
  }[];
  /**
   * The section's own students by name (issue 19: named to its professors and teaching
   * assistants only), each with every material of the section, opened or not.
   */
  students: {
    userId: number;
    firstName: string;
    lastName: string;
    email: string;
    materials: {
      productId: number;
      /** How the student can open it now, or null: they cannot. */
      access: AccessWay | null;
      opens: number;
      lastOpenedAt: Date | null;
    }[];
  }[];
};
