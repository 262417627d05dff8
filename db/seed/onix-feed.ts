// Writes ONIX for Books 3.0 messages (reference tags) from plain product facts: the demo
// publisher's feed (publisher-feed.ts) and the import benchmark's feeds go through the same
// import path as a publisher's feed (issue 15).

export type FeedProduct = {
  reference: string;
  isbn13: string;
  format: 'EPUB' | 'PDF' | 'print';
  title: string;
  subtitle?: string | null;
  contributors: { name: string; role: string }[];
  publisher: string;
  imprint?: string | null;
  /** ISO 639-2/B. */
  language: string;
  editionNumber?: number | null;
  pages?: number | null;
  /** YYYYMMDD. */
  publicationDate?: string | null;
  bisac: string[];
  description: string;
  /** US consumer price in USD cents; null: price to be announced. */
  priceCents: number | null;
  /** Fixed format (list 175 E201), as a fixed-layout EPUB's record says. */
  fixedFormat?: boolean;
  /** ONIX code list 196 values (ProductFormFeatureType 09). */
  accessibility?: string[];
  certifier?: string | null;
  accessibilitySummary?: string | null;
  /** A file the feed names as a resource (an EPUB or PDF delivered beside the feed). */
  fileName?: string | null;
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const xmlText = (value: string) => value.replace(/[&<>"]/g, (c) => ESCAPES[c]!);

export function onixHeader(sender: string, sentAt: Date): string {
  const stamp = sentAt.toISOString().replace(/[-:]/g, '').slice(0, 13);
  return `<?xml version="1.0" encoding="UTF-8"?>
<ONIXMessage release="3.0" xmlns="http://ns.editeur.org/onix/3.0/reference">
<Header><Sender><SenderName>${xmlText(sender)}</SenderName></Sender><SentDateTime>${stamp}</SentDateTime></Header>
`;
}

export const ONIX_FOOTER = '</ONIXMessage>\n';

const cents = (value: number) =>
  `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;

export function onixProduct(p: FeedProduct): string {
  const digital = p.format !== 'print';
  const form = digital
    ? `<ProductForm>ED</ProductForm><ProductFormDetail>${p.format === 'EPUB' ? 'E101' : 'E107'}</ProductFormDetail>${
        p.fixedFormat ? '<ProductFormDetail>E201</ProductFormDetail>' : ''
      }`
    : '<ProductForm>BC</ProductForm>';
  const features = (p.accessibility ?? [])
    .map(
      (code) =>
        `<ProductFormFeature><ProductFormFeatureType>09</ProductFormFeatureType><ProductFormFeatureValue>${code}</ProductFormFeatureValue>${
          code === '90' && p.certifier
            ? `<ProductFormFeatureDescription>${xmlText(p.certifier)}</ProductFormFeatureDescription>`
            : code === '00' && p.accessibilitySummary
              ? `<ProductFormFeatureDescription>${xmlText(p.accessibilitySummary)}</ProductFormFeatureDescription>`
              : ''
        }</ProductFormFeature>`,
    )
    .join('');
  const contributors = p.contributors
    .map(
      (c, i) =>
        `<Contributor><SequenceNumber>${i + 1}</SequenceNumber><ContributorRole>${c.role}</ContributorRole><PersonName>${xmlText(c.name)}</PersonName></Contributor>`,
    )
    .join('');
  const subjects = p.bisac
    .map(
      (code, i) =>
        `<Subject>${i === 0 ? '<MainSubject/>' : ''}<SubjectSchemeIdentifier>10</SubjectSchemeIdentifier><SubjectCode>${code}</SubjectCode></Subject>`,
    )
    .join('');
  const subtitle = p.subtitle ? `<Subtitle>${xmlText(p.subtitle)}</Subtitle>` : '';
  const edition = p.editionNumber ? `<EditionNumber>${p.editionNumber}</EditionNumber>` : '';
  const pages = p.pages
    ? `<Extent><ExtentType>00</ExtentType><ExtentValue>${p.pages}</ExtentValue><ExtentUnit>03</ExtentUnit></Extent>`
    : '';
  const file = p.fileName
    ? `<SupportingResource><ResourceContentType>15</ResourceContentType><ContentAudience>00</ContentAudience><ResourceMode>04</ResourceMode><ResourceVersion><ResourceForm>02</ResourceForm><ResourceLink>${xmlText(p.fileName)}</ResourceLink></ResourceVersion></SupportingResource>`
    : '';
  const imprint = p.imprint
    ? `<Imprint><ImprintName>${xmlText(p.imprint)}</ImprintName></Imprint>`
    : '';
  const date = p.publicationDate
    ? `<PublishingDate><PublishingDateRole>01</PublishingDateRole><Date dateformat="00">${p.publicationDate}</Date></PublishingDate>`
    : '';
  const price =
    p.priceCents === null
      ? '<UnpricedItemType>02</UnpricedItemType>'
      : `<Price><PriceType>01</PriceType><PriceAmount>${cents(p.priceCents)}</PriceAmount><CurrencyCode>USD</CurrencyCode></Price>`;
  return `<Product><RecordReference>${xmlText(p.reference)}</RecordReference><NotificationType>03</NotificationType>
<ProductIdentifier><ProductIDType>15</ProductIDType><IDValue>${p.isbn13}</IDValue></ProductIdentifier>
<DescriptiveDetail><ProductComposition>00</ProductComposition>${form}${features}
<TitleDetail><TitleType>01</TitleType><TitleElement><TitleElementLevel>01</TitleElementLevel><TitleText>${xmlText(p.title)}</TitleText>${subtitle}</TitleElement></TitleDetail>
${contributors}${edition}<Language><LanguageRole>01</LanguageRole><LanguageCode>${p.language}</LanguageCode></Language>${pages}${subjects}</DescriptiveDetail>
<CollateralDetail><TextContent><TextType>03</TextType><ContentAudience>00</ContentAudience><Text textformat="06">${xmlText(p.description)}</Text></TextContent>${file}</CollateralDetail>
<PublishingDetail>${imprint}<Publisher><PublishingRole>01</PublishingRole><PublisherName>${xmlText(p.publisher)}</PublisherName></Publisher><PublishingStatus>04</PublishingStatus>${date}</PublishingDetail>
<ProductSupply><Market><Territory><RegionsIncluded>WORLD</RegionsIncluded></Territory></Market><SupplyDetail><Supplier><SupplierName>${xmlText(p.publisher)}</SupplierName></Supplier><ProductAvailability>20</ProductAvailability>${price}</SupplyDetail></ProductSupply>
</Product>
`;
}
