import { bylineOf, type Contributor } from '#domain/catalog/contributors.ts';
import { isValidIsbn10, isValidIsbn13, normalizeIdentifier } from '#domain/catalog/isbn.ts';
import type { MessageWording } from '#domain/shared/wording.ts';
import {
  type AccessibilityRow,
  onixAccessibilityFacts,
  onixAccessibilityRows,
} from './accessibility.ts';
import { onixDate } from './dates.ts';
import { plainDescription } from './description.ts';
import { childOf, childrenOf, type OnixElement, pathOf, textOf } from './element.ts';
import { onixKeywords } from './keywords.ts';
import { languageTag, UNDETERMINED_LANGUAGE } from './language.ts';
import { type PriceDecision, usPrice } from './price.ts';

// One ONIX Product to what the store keeps of it (issue 15), following the EDITEUR code lists.
// A record is taken whole or refused whole, with a plain reason; nothing is "fixed".

export type IdentifierDraft = { type: 'EISBN13' | 'ISBN13' | 'EISBN10' | 'ISBN10'; value: string };
export type SubjectDraft = { scheme: 'bisac' | 'thema'; code: string };

export type ProductDraft = {
  recordReference: string;
  /**
   * A block update (NotificationType 04): only the blocks present replace what the store
   * has; the others stay as they were.
   */
  partial: boolean;
  blocks: { descriptive: boolean; collateral: boolean; publishing: boolean; supply: boolean };
  format: 'digital' | 'print';
  fileType: 'EPUB' | 'PDF' | null;
  identifiers: IdentifierDraft[];
  supplierItemId: string | null;
  title: string;
  subtitle: string | null;
  series: string | null;
  contributors: Contributor[];
  authors: string;
  publisher: string;
  imprint: string | null;
  languageCode: string;
  publicationDate: string | null;
  /** A future publication or embargo date (ISO day), until which the product is not sold. */
  saleStartsOn: string | null;
  editionNumber: number | null;
  edition: string | null;
  numPages: number | null;
  subjects: SubjectDraft[];
  keywords: string[];
  description: string;
  accessibility: AccessibilityRow[];
  price: PriceDecision;
  /** Links the feed gives for the front cover and for book files. */
  coverLink: string | null;
  fileLinks: string[];
};

export type RecordOutcome =
  | { kind: 'upsert'; draft: ProductDraft }
  | { kind: 'delete'; recordReference: string; identifiers: IdentifierDraft[] }
  | { kind: 'refused'; reference: string | null; reason: MessageWording };

export type ReadOptions = {
  /** Today, as an ISO day: decides current prices and future dates. */
  today: string;
  defaultCurrency: string | null;
  defaultLanguage: string | null;
};

class Refusal extends Error {
  constructor(readonly reason: MessageWording) {
    super(reason.message);
  }
}
const refuse = (message: string, values?: Record<string, string | number>): never => {
  throw new Refusal(values ? { message, values } : { message });
};

// ---------------------------------------------------------------------------------------------
// Identifiers (list 5)

function readIdentifiers(product: OnixElement, digital: boolean) {
  const identifiers: IdentifierDraft[] = [];
  let supplierItemId: string | null = null;
  const add = (draft: IdentifierDraft) => {
    if (!identifiers.some((i) => i.type === draft.type)) identifiers.push(draft);
  };
  for (const id of childrenOf(product, 'ProductIdentifier')) {
    const type = textOf(id, 'ProductIDType');
    const raw = textOf(id, 'IDValue');
    if (!raw) continue;
    const value = normalizeIdentifier(raw);
    if (type === '15' || (type === '03' && /^97[89]/.test(value))) {
      // An ISBN-13, or a GTIN-13 in the book prefixes (which is an ISBN).
      if (!/^\d{13}$/.test(value)) refuse('import.refused.isbnShape', { value: raw });
      if (!isValidIsbn13(value)) refuse('import.refused.isbnCheckDigit', { value: raw });
      add({ type: digital ? 'EISBN13' : 'ISBN13', value });
    } else if (type === '03') {
      if (!/^\d{13}$/.test(value) || !isValidIsbn13(value)) {
        refuse('import.refused.gtinCheckDigit', { value: raw });
      }
    } else if (type === '02') {
      if (!/^\d{9}[\dX]$/.test(value)) refuse('import.refused.isbnShape', { value: raw });
      if (!isValidIsbn10(value)) refuse('import.refused.isbnCheckDigit', { value: raw });
      add({ type: digital ? 'EISBN10' : 'ISBN10', value });
    } else if (type === '01') {
      supplierItemId ??= raw.trim().slice(0, 100);
    }
  }
  return { identifiers, supplierItemId };
}

// ---------------------------------------------------------------------------------------------
// Titles (lists 15, 149)

function titleOf(element: OnixElement | undefined): string | null {
  if (!element) return null;
  const text = textOf(element, 'TitleText');
  if (text) return text;
  const without = textOf(element, 'TitleWithoutPrefix');
  if (!without) return null;
  const prefix = textOf(element, 'TitlePrefix');
  return prefix ? `${prefix} ${without}` : without;
}

function distinctiveTitle(titleDetails: OnixElement[]): OnixElement | undefined {
  return titleDetails.find((t) => textOf(t, 'TitleType') === '01');
}

function elementAtLevel(detail: OnixElement | undefined, level: string): OnixElement | undefined {
  const elements = childrenOf(detail, 'TitleElement');
  return elements.find((e) => (textOf(e, 'TitleElementLevel') ?? '01') === level);
}

/**
 * A Collection's name (its level 02 title) with the product's number in it: from that element,
 * or from the level 01 element beside it (EDITEUR's own samples put it there), or from its
 * CollectionSequence.
 */
function collectionSeries(collection: OnixElement | undefined): string | null {
  const detail = distinctiveTitle(childrenOf(collection, 'TitleDetail'));
  const named = elementAtLevel(detail, '02');
  const name = titleOf(named);
  if (!name) return null;
  const part =
    textOf(named, 'PartNumber') ??
    textOf(elementAtLevel(detail, '01'), 'PartNumber') ??
    textOf(childrenOf(collection, 'CollectionSequence')[0], 'CollectionSequenceNumber');
  return part ? `${name}, ${part}` : name;
}

function seriesName(element: OnixElement | undefined): string | null {
  const name = titleOf(element);
  if (!name) return null;
  const part = textOf(element, 'PartNumber');
  return part ? `${name}, ${part}` : name;
}

// ---------------------------------------------------------------------------------------------
// Contributors (list 17)

function contributorName(contributor: OnixElement): string | null {
  const person = textOf(contributor, 'PersonName');
  if (person) return person;
  const key = textOf(contributor, 'KeyNames');
  if (key) {
    const before = textOf(contributor, 'NamesBeforeKey');
    return before ? `${before} ${key}` : key;
  }
  const corporate = textOf(contributor, 'CorporateName');
  if (corporate) return corporate;
  const inverted = textOf(contributor, 'PersonNameInverted');
  if (inverted) {
    const [last, first] = inverted.split(/,\s*/, 2);
    return first ? `${first} ${last}` : inverted;
  }
  return null;
}

function readContributors(descriptive: OnixElement | undefined): Contributor[] {
  return childrenOf(descriptive, 'Contributor')
    .map((c, index) => ({
      name: contributorName(c)?.normalize('NFC') ?? null,
      role: textOf(c, 'ContributorRole') ?? 'A01',
      sequence: Number(textOf(c, 'SequenceNumber') ?? Number.NaN),
      index,
    }))
    .filter((c): c is typeof c & { name: string } => c.name !== null)
    .sort((a, b) => {
      const sa = Number.isFinite(a.sequence) ? a.sequence : Number.MAX_SAFE_INTEGER;
      const sb = Number.isFinite(b.sequence) ? b.sequence : Number.MAX_SAFE_INTEGER;
      return sa - sb || a.index - b.index;
    })
    .map(({ name, role }) => ({ name, role }));
}

// ---------------------------------------------------------------------------------------------
// Form (lists 150, 175, 2)

function readForm(descriptive: OnixElement | undefined) {
  const form = textOf(descriptive, 'ProductForm');
  const details = childrenOf(descriptive, 'ProductFormDetail').map((d) => d.text.trim());
  const composition = textOf(descriptive, 'ProductComposition');
  if (composition && composition !== '00')
    refuse('import.refused.composition', { code: composition });
  if (!form) refuse('import.refused.noForm');
  if (/^B[A-Z]$/.test(form!) && form !== 'BZ') return { format: 'print' as const, fileType: null };
  if (/^E[A-Z]$/.test(form!)) {
    if (details.includes('E101')) return { format: 'digital' as const, fileType: 'EPUB' as const };
    if (details.includes('E107')) return { format: 'digital' as const, fileType: 'PDF' as const };
    if (details.length === 0)
      return refuse('import.refused.digitalFormatUnstated', { form: form! });
    return refuse('import.refused.digitalFormat', { form: [form!, ...details].join(' ') });
  }
  return refuse('import.refused.form', { form: form! });
}

// ---------------------------------------------------------------------------------------------
// Dates (list 163, 55)

function dateOf(composite: OnixElement): string | null {
  const date = childOf(composite, 'Date');
  if (!date) return null;
  return onixDate(date.text, date.attributes.dateformat ?? textOf(composite, 'DateFormat'));
}

function readDates(product: OnixElement, today: string) {
  const publishing = pathOf(product, 'PublishingDetail');
  let publicationDate: string | null = null;
  const embargoes: string[] = [];
  for (const d of childrenOf(publishing, 'PublishingDate')) {
    const role = textOf(d, 'PublishingDateRole');
    const day = dateOf(d);
    if (!day) continue;
    if (role === '01') publicationDate ??= day;
    if (role === '02') embargoes.push(day);
  }
  // A market's own dates, for the market that covers the US, come before the global ones.
  for (const supply of childrenOf(product, 'ProductSupply')) {
    const market = pathOf(supply, 'MarketPublishingDetail');
    if (!market) continue;
    const territory = pathOf(supply, 'Market', 'Territory');
    const countries = `${textOf(territory, 'CountriesIncluded') ?? ''} ${textOf(territory, 'RegionsIncluded') ?? ''}`;
    const excluded = textOf(territory, 'CountriesExcluded') ?? '';
    if (territory && (!/\b(US|WORLD)\b/.test(countries) || /\bUS\b/.test(excluded))) continue;
    for (const d of childrenOf(market, 'MarketDate')) {
      const role = textOf(d, 'MarketDateRole');
      const day = dateOf(d);
      if (!day) continue;
      if (role === '01') publicationDate = day;
      if (role === '02') embargoes.push(day);
    }
  }
  const future = [publicationDate, ...embargoes].filter((d): d is string => !!d && d > today);
  const saleStartsOn = future.length > 0 ? future.sort().at(-1)! : null;
  return { publicationDate, saleStartsOn };
}

// ---------------------------------------------------------------------------------------------
// The rest of the descriptive detail

function readPages(descriptive: OnixElement | undefined): number | null {
  const byType = new Map<string, number>();
  for (const extent of childrenOf(descriptive, 'Extent')) {
    const type = textOf(extent, 'ExtentType');
    const unit = textOf(extent, 'ExtentUnit');
    const value = Number(textOf(extent, 'ExtentValue'));
    if (type && unit === '03' && Number.isInteger(value) && value > 0 && value < 100_000) {
      byType.set(type, value);
    }
  }
  // List 23: main content, absolute, total numbered, content page count, then the print
  // counterpart's count, and last a digital product's notional number of pages.
  for (const type of ['00', '07', '05', '11', '08', '10']) {
    if (byType.has(type)) return byType.get(type)!;
  }
  return null;
}

function readSubjects(descriptive: OnixElement | undefined) {
  const subjects: (SubjectDraft & { main: boolean })[] = [];
  const keywordHeadings: string[] = [];
  for (const subject of childrenOf(descriptive, 'Subject')) {
    const scheme = textOf(subject, 'SubjectSchemeIdentifier');
    const code = textOf(subject, 'SubjectCode');
    const main = childOf(subject, 'MainSubject') !== undefined;
    if (scheme === '10' && code) subjects.push({ scheme: 'bisac', code, main });
    else if (scheme === '93' && code) subjects.push({ scheme: 'thema', code, main });
    else if (scheme === '20') {
      const heading = textOf(subject, 'SubjectHeadingText');
      if (heading) keywordHeadings.push(heading);
    }
  }
  // The main subject first; the others in the feed's order.
  subjects.sort((a, b) => Number(b.main) - Number(a.main));
  return {
    subjects: subjects.map(({ scheme, code }) => ({ scheme, code })),
    keywords: onixKeywords(keywordHeadings),
  };
}

function readDescription(product: OnixElement): string {
  const texts = childrenOf(pathOf(product, 'CollateralDetail'), 'TextContent');
  // List 153: 03 description, then 02 short description; list 154: for everyone (00) or for
  // end customers (03) before any other audience.
  const audienceRank = (t: OnixElement) => {
    const audiences = childrenOf(t, 'ContentAudience').map((a) => a.text.trim());
    return audiences.length === 0 || audiences.some((a) => a === '00' || a === '03') ? 0 : 1;
  };
  for (const type of ['03', '02']) {
    const chosen = texts
      .filter((t) => textOf(t, 'TextType') === type)
      .sort((a, b) => audienceRank(a) - audienceRank(b))[0];
    const text = childOf(chosen, 'Text');
    if (text?.text.trim()) return plainDescription(text.text, text.attributes.textformat);
  }
  return '';
}

function readResources(product: OnixElement) {
  let coverLink: string | null = null;
  const fileLinks: string[] = [];
  for (const resource of childrenOf(pathOf(product, 'CollateralDetail'), 'SupportingResource')) {
    const type = textOf(resource, 'ResourceContentType');
    const mode = textOf(resource, 'ResourceMode');
    for (const version of childrenOf(resource, 'ResourceVersion')) {
      const link = textOf(version, 'ResourceLink');
      if (!link) continue;
      // List 158: 01 front cover; list 159: 03 image.
      if (type === '01' && mode === '03') coverLink ??= link;
      else if (/\.(epub|pdf)$/i.test(link)) fileLinks.push(link);
    }
  }
  return { coverLink, fileLinks };
}

function readPublisher(product: OnixElement) {
  const publishing = pathOf(product, 'PublishingDetail');
  const publishers = childrenOf(publishing, 'Publisher');
  const main = publishers.find((p) => textOf(p, 'PublishingRole') === '01') ?? publishers[0];
  const imprint = textOf(pathOf(publishing, 'Imprint'), 'ImprintName');
  // ONIX 3.0 asks for an Imprint or a Publisher: a record with only its imprint is sold under
  // that name (91 of 105 records of a real French feed).
  return { publisher: textOf(main, 'PublisherName') ?? imprint ?? '', imprint };
}

// ---------------------------------------------------------------------------------------------

/** What the store does with one ONIX Product. */
export function readOnixProduct(product: OnixElement, options: ReadOptions): RecordOutcome {
  const recordReference = textOf(product, 'RecordReference');
  try {
    if (!recordReference) return refuse('import.refused.noReference');
    if (recordReference.length > 200) return refuse('import.refused.referenceTooLong');
    const notification = textOf(product, 'NotificationType') ?? '03';
    if (notification === '88' || notification === '89') return refuse('import.refused.testRecord');
    const descriptive = pathOf(product, 'DescriptiveDetail');

    if (notification === '05') {
      // A delete names the product by reference, or by ISBN; its form may be absent.
      const digital = /^E/.test(textOf(descriptive, 'ProductForm') ?? 'E');
      return {
        kind: 'delete',
        recordReference,
        identifiers: readIdentifiers(product, digital).identifiers,
      };
    }

    const partial = notification === '04';
    const blocks = {
      descriptive: descriptive !== undefined,
      collateral: childOf(product, 'CollateralDetail') !== undefined,
      publishing: childOf(product, 'PublishingDetail') !== undefined,
      supply: childOf(product, 'ProductSupply') !== undefined,
    };
    if (!descriptive && !partial) return refuse('import.refused.noDescriptiveDetail');
    const { format, fileType } = descriptive
      ? readForm(descriptive)
      : { format: 'digital' as const, fileType: null };
    const { identifiers, supplierItemId } = readIdentifiers(product, format === 'digital');

    const titleDetail = distinctiveTitle(childrenOf(descriptive, 'TitleDetail'));
    const productTitle = elementAtLevel(titleDetail, '01');
    const title = titleOf(productTitle)?.normalize('NFC');
    if (!title && descriptive) return refuse('import.refused.noTitle');
    if (title && title.length > 500) return refuse('import.refused.titleTooLong');
    const collection = childrenOf(descriptive, 'Collection').find(
      (c) => (textOf(c, 'CollectionType') ?? '10') === '10',
    );
    const series = seriesName(elementAtLevel(titleDetail, '02')) ?? collectionSeries(collection);

    const contributors = readContributors(descriptive);
    const languages = childrenOf(descriptive, 'Language');
    // List 22: the language of the text (01), else the original one of a multilingual edition
    // (06, beside its translation, 07), else the header's default; a feed that names none gets
    // 'und' (BCP 47: undetermined), and no page claims a language for it.
    const languageOf = (role: string) =>
      languageTag(
        textOf(
          languages.find((l) => textOf(l, 'LanguageRole') === role),
          'LanguageCode',
        ),
      );
    const language =
      languageOf('01') ??
      languageOf('06') ??
      languageTag(options.defaultLanguage) ??
      UNDETERMINED_LANGUAGE;
    const edition = Number(textOf(descriptive, 'EditionNumber'));
    const { subjects, keywords } = readSubjects(descriptive);
    const supplies = childrenOf(product, 'ProductSupply');

    return {
      kind: 'upsert',
      draft: {
        recordReference,
        partial,
        blocks,
        format,
        fileType,
        identifiers,
        supplierItemId,
        title: title ?? '',
        subtitle: textOf(productTitle, 'Subtitle')?.normalize('NFC') ?? null,
        series: series?.normalize('NFC') ?? null,
        contributors,
        authors: bylineOf(contributors),
        ...readPublisher(product),
        languageCode: language,
        ...readDates(product, options.today),
        editionNumber: Number.isInteger(edition) && edition > 0 && edition < 1000 ? edition : null,
        edition: textOf(descriptive, 'EditionStatement'),
        numPages: readPages(descriptive),
        subjects,
        keywords,
        description: readDescription(product),
        accessibility:
          format === 'digital' ? onixAccessibilityRows(onixAccessibilityFacts(product)) : [],
        price: usPrice(supplies, {
          today: options.today,
          defaultCurrency: options.defaultCurrency,
        }),
        ...readResources(product),
      },
    };
  } catch (error) {
    if (error instanceof Refusal) {
      return { kind: 'refused', reference: recordReference, reason: error.reason };
    }
    throw error;
  }
}
