import { describe, expect, it } from 'vitest';
import type { OnixElement } from './element.ts';
import { FeedRefused } from './feed-reader.ts';
import { type ProductDraft, readOnixProduct } from './product.ts';
import { feedEvents, fixture } from './test-feed.ts';

// Issue 15, "ONIX for Books": what the trade puts where, following the EDITEUR code lists.
const options = { today: '2026-11-28', defaultCurrency: null, defaultLanguage: null };

async function products(text: string): Promise<OnixElement[]> {
  return (await feedEvents(text)).flatMap((e) => (e.kind === 'product' ? [e.product] : []));
}

async function drafts(name: string): Promise<Map<string, ReturnType<typeof readOnixProduct>>> {
  const out = new Map<string, ReturnType<typeof readOnixProduct>>();
  for (const product of await products(fixture(name))) {
    const outcome = readOnixProduct(product, options);
    const key =
      outcome.kind === 'upsert'
        ? outcome.draft.recordReference
        : outcome.kind === 'delete'
          ? outcome.recordReference
          : (outcome.reference ?? '?');
    out.set(key, outcome);
  }
  return out;
}

function draftOf(outcome: ReturnType<typeof readOnixProduct> | undefined): ProductDraft {
  if (outcome?.kind !== 'upsert') throw new Error(`not an upsert: ${JSON.stringify(outcome)}`);
  return outcome.draft;
}

describe('an ONIX 3.0 feed in reference tags', () => {
  it('reads the distinctive title, never the distributor’s, with its prefix and subtitle', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100001'));
    expect(draft.title).toBe('The Principles of Organic Chemistry');
    expect(draft.subtitle).toBe('Structure and Reactivity');
    expect(draft.series).toBe('Chemistry Foundations, 4');
  });

  it('reads contributors in sequence with their roles and their names intact', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100001'));
    expect(draft.contributors).toEqual([
      { name: 'José Núñez', role: 'A01' },
      { name: 'Zoë Ångström', role: 'B06' },
      { name: 'Chidi Okafor', role: 'A24' },
    ]);
    expect(draft.authors).toBe('José Núñez');
  });

  it('reads identifiers, form, publisher, language, edition, pages and dates', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100001'));
    expect(draft.identifiers).toEqual([{ type: 'EISBN13', value: '9781234567897' }]);
    expect(draft.supplierItemId).toBe('EX-100001');
    expect(draft.format).toBe('digital');
    expect(draft.fileType).toBe('EPUB');
    expect(draft.publisher).toBe('Éditions Exemple');
    expect(draft.imprint).toBe('Exemple Science');
    expect(draft.languageCode).toBe('en');
    expect(draft.editionNumber).toBe(3);
    // Main content page count (list 23 code 00) before the print counterpart's (08).
    expect(draft.numPages).toBe(612);
    expect(draft.publicationDate).toBe('2024-03-15');
    expect(draft.saleStartsOn).toBeNull();
  });

  it('puts the main subject first and keeps keywords', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100001'));
    expect(draft.subjects).toEqual([
      { scheme: 'bisac', code: 'SCI013000' },
      { scheme: 'thema', code: 'PNN' },
    ]);
    expect(draft.keywords).toEqual(['organic chemistry', 'reactions']);
  });

  it('keeps the description (type 03 over 02) as plain text', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100001'));
    expect(draft.description).toBe('A clear guide to reactions.\n\n• Mechanisms\n• Synthesis');
    expect(draft.coverLink).toBe('covers/9781234567897.jpg');
  });

  it('takes the US consumer price in USD valid today, not the first price written', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100001'));
    // GBP (UK market), CAD, a library price (qualifier 06) and an expired USD price come first.
    expect(draft.price).toEqual({ kind: 'price', cents: 5499, taxIncluded: false });
  });

  it('maps accessibility details (type 09) by the W3C display guide, and nothing else', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100001'));
    const codes = draft.accessibility.map((r) => r.code);
    expect(codes).toEqual([
      'ways-of-reading-visual-adjustments-modifiable',
      'ways-of-reading-nonvisual-reading-readable',
      'ways-of-reading-nonvisual-reading-alt-text',
      'ways-of-reading-prerecorded-audio-no-metadata',
      'conformance-aa',
      'conformance-certifier',
      'conformance-details-claim',
      'navigation-toc',
      'navigation-structural',
      'rich-content-accessible-math-as-mathml',
      'hazards-none',
      null,
      'legal-considerations-no-metadata',
    ]);
    const claim = draft.accessibility.find((r) => r.code === 'conformance-details-claim');
    expect(claim?.detail).toBe('EPUB Accessibility 1.1 - WCAG 2.1 Level AA');
    expect(draft.accessibility.find((r) => r.code === null)?.detail).toBe(
      'This publication meets WCAG 2.1 AA.',
    );
  });

  it('refuses an ISBN whose check digit is wrong, naming it', async () => {
    const outcome = (await drafts('reference-3.0.xml')).get('com.example.onix.100002');
    expect(outcome).toEqual({
      kind: 'refused',
      reference: 'com.example.onix.100002',
      reason: { message: 'import.refused.isbnCheckDigit', values: { value: '9781234567890' } },
    });
  });

  it('reads a GTIN-13 in the book prefixes as the ISBN of a print book', async () => {
    const draft = draftOf((await drafts('reference-3.0.xml')).get('com.example.onix.100003'));
    expect(draft.format).toBe('print');
    expect(draft.identifiers).toEqual([{ type: 'ISBN13', value: '9780306406157' }]);
    expect(draft.authors).toBe('Mei Lin');
    expect(draft.languageCode).toBe('fr');
    expect(draft.publicationDate).toBe('2019-01-01');
    // The world except the US: no US price.
    expect(draft.price).toEqual({ kind: 'hold', hold: 'no-us-price' });
    expect(draft.accessibility).toEqual([]);
  });
});

describe('an ONIX 3.1 feed in short tags', () => {
  it('reads the same facts under short tags', async () => {
    const draft = draftOf((await drafts('short-3.1.xml')).get('org.shorttag.2001'));
    expect(draft.title).toBe('Calculus in Context');
    expect(draft.subtitle).toBe('A First Course');
    expect(draft.identifiers).toEqual([{ type: 'EISBN13', value: '9780131103658' }]);
    expect(draft.fileType).toBe('PDF');
    expect(draft.contributors).toEqual([{ name: 'Åsa Lindqvist', role: 'A01' }]);
    expect(draft.edition).toBe('Revised edition');
    expect(draft.languageCode).toBe('sv');
    expect(draft.numPages).toBe(388);
    expect(draft.price).toEqual({ kind: 'price', cents: 2950, taxIncluded: false });
  });

  it('holds a future publication date as the day sales start', async () => {
    const draft = draftOf((await drafts('short-3.1.xml')).get('org.shorttag.2001'));
    expect(draft.publicationDate).toBe('2099-03-01');
    expect(draft.saleStartsOn).toBe('2099-03-01');
  });

  it('sanitises an escaped HTML description: text kept, script gone', async () => {
    const draft = draftOf((await drafts('short-3.1.xml')).get('org.shorttag.2001'));
    expect(draft.description).toBe('Limits, derivatives & integrals.');
  });

  it('holds an item whose price is to be announced', async () => {
    const draft = draftOf((await drafts('short-3.1.xml')).get('org.shorttag.2002'));
    expect(draft.title).toBe('A Primer of Statistics');
    expect(draft.price).toEqual({ kind: 'hold', hold: 'unpriced' });
  });

  it('refuses a form the store does not sell', async () => {
    const outcome = (await drafts('short-3.1.xml')).get('org.shorttag.2003');
    expect(outcome).toMatchObject({ kind: 'refused', reason: { message: 'import.refused.form' } });
  });
});

const minimal = (root: string, extra = '') => `<?xml version="1.0"?>
${root}
  <Product>
    <RecordReference>ns.test.1</RecordReference>
    <NotificationType>03</NotificationType>
    <ProductIdentifier><ProductIDType>15</ProductIDType><IDValue>9780131103672</IDValue></ProductIdentifier>
    <DescriptiveDetail>
      <ProductComposition>00</ProductComposition><ProductForm>BC</ProductForm>
      <TitleDetail><TitleType>01</TitleType><TitleElement><TitleElementLevel>01</TitleElementLevel><TitleText>Namespaces</TitleText></TitleElement></TitleDetail>
    </DescriptiveDetail>${extra}
  </Product>
</ONIXMessage>`;

describe('namespaces and versions', () => {
  it.each([
    [
      'the correct namespace',
      '<ONIXMessage release="3.0" xmlns="http://ns.editeur.org/onix/3.0/reference">',
    ],
    ['no namespace', '<ONIXMessage release="3.0">'],
    [
      'the common wrong namespace',
      '<ONIXMessage release="3.0" xmlns="http://www.editeur.org/onix/3.0/reference">',
    ],
    [
      'a prefixed namespace',
      '<onix:ONIXMessage release="3.0" xmlns:onix="http://ns.editeur.org/onix/3.0/reference">',
    ],
  ])('reads a feed with %s', async (_, root) => {
    // A prefixed feed: every tag carries the prefix the root declares.
    const text = root.startsWith('<onix:')
      ? minimal(
          '<ONIXMessage release="3.0" xmlns:onix="http://ns.editeur.org/onix/3.0/reference">',
        ).replace(/<(\/?)([A-Za-z])/g, '<$1onix:$2')
      : minimal(root);
    const [product] = await products(text);
    expect(product).toBeDefined();
    expect(draftOf(readOnixProduct(product!, options)).title).toBe('Namespaces');
  });

  it('refuses ONIX 2.1 as a whole, saying which version it is', async () => {
    const onix21 = `<?xml version="1.0"?>
<!DOCTYPE ONIXMessage SYSTEM "http://www.editeur.org/onix/2.1/reference/onix-international.dtd">
<ONIXMessage><Header><FromCompany>Old</FromCompany></Header>
<Product><RecordReference>old.1</RecordReference><NotificationType>03</NotificationType>
<ProductForm>BC</ProductForm><Title><TitleType>01</TitleType><TitleText>Old</TitleText></Title></Product>
</ONIXMessage>`;
    await expect(feedEvents(onix21)).rejects.toEqual(
      new FeedRefused({ message: 'import.feed.version', values: { version: '2.1' } }),
    );
    const declared = onix21
      .replace('<ONIXMessage>', '<ONIXMessage release="2.1">')
      .replace(/<!DOCTYPE[^>]*>/, '');
    await expect(feedEvents(declared)).rejects.toMatchObject({
      reason: { message: 'import.feed.version', values: { version: '2.1' } },
    });
    // Without a DOCTYPE or a release, its shape gives it away.
    const bare = onix21.replace(/<!DOCTYPE[^>]*>/, '');
    await expect(feedEvents(bare)).rejects.toMatchObject({
      reason: { message: 'import.feed.version', values: { version: '2.1' } },
    });
  });

  it('refuses a file that is not ONIX, or not XML', async () => {
    await expect(feedEvents('<rss version="2.0"><channel/></rss>')).rejects.toMatchObject({
      reason: { message: 'import.feed.notOnix' },
    });
    await expect(feedEvents('%PDF-1.7 not xml')).rejects.toMatchObject({
      reason: { message: 'import.feed.notXml' },
    });
  });
});

describe('malformed XML', () => {
  it('refuses the product it spoils, with the line, and reads the others', async () => {
    const text = `<?xml version="1.0"?>
<ONIXMessage release="3.0">
  <Product><RecordReference>ok.1</RecordReference><DescriptiveDetail><ProductForm>BC</ProductForm>
    <TitleDetail><TitleType>01</TitleType><TitleElement><TitleText>One</TitleText></TitleElement></TitleDetail></DescriptiveDetail></Product>
  <Product><RecordReference>bad.2</RecordReference><DescriptiveDetail><ProductForm>BC</ProductForm>
    <TitleDetail><TitleType>01</TitleType><TitleElement><TitleText>Two & Three</TitleText></TitleElement></TitleDetail></DescriptiveDetail></Product>
  <Product><RecordReference>ok.3</RecordReference><DescriptiveDetail><ProductForm>BC</ProductForm>
    <TitleDetail><TitleType>01</TitleType><TitleElement><TitleText>Four</TitleText></TitleElement></TitleDetail></DescriptiveDetail></Product>
</ONIXMessage>`;
    const events = await feedEvents(text);
    const summary = events.map((e) =>
      e.kind === 'header'
        ? 'header'
        : e.kind === 'malformed'
          ? `malformed ${e.reference} line ${e.line}`
          : 'product',
    );
    expect(summary).toEqual(['header', 'product', 'malformed bad.2 line 6', 'product']);
  });

  it('refuses the product a truncated feed cuts', async () => {
    const text = minimal('<ONIXMessage release="3.0">').slice(0, 300);
    const events = await feedEvents(text);
    expect(events.at(-1)).toMatchObject({ kind: 'malformed', reference: 'ns.test.1' });
  });
});

// Session 23: what EDITEUR's own samples and real publisher feeds put where.
describe('real feeds', () => {
  const record = (descriptive: string, blocks = '') => `<?xml version="1.0"?>
<ONIXMessage release="3.0" xmlns="http://ns.editeur.org/onix/3.0/reference">
  <Product>
    <RecordReference>real.1</RecordReference>
    <NotificationType>03</NotificationType>
    <ProductIdentifier><ProductIDType>15</ProductIDType><IDValue>9780131103672</IDValue></ProductIdentifier>
    <DescriptiveDetail>
      <ProductComposition>00</ProductComposition><ProductForm>BC</ProductForm>
      <TitleDetail><TitleType>01</TitleType><TitleElement><TitleElementLevel>01</TitleElementLevel><TitleText>Roseanna</TitleText></TitleElement></TitleDetail>
      ${descriptive}
    </DescriptiveDetail>${blocks}
  </Product>
</ONIXMessage>`;
  const read = async (text: string, defaultLanguage: string | null = null) =>
    draftOf(readOnixProduct((await products(text))[0]!, { ...options, defaultLanguage }));

  it('claims no language a feed does not name, and reads a multilingual edition’s original', async () => {
    expect((await read(record(''))).languageCode).toBe('und');
    expect((await read(record(''), 'fre')).languageCode).toBe('fr');
    const multilingual = record(`
      <Language><LanguageRole>06</LanguageRole><LanguageCode>fre</LanguageCode></Language>
      <Language><LanguageRole>07</LanguageRole><LanguageCode>eng</LanguageCode></Language>`);
    expect((await read(multilingual)).languageCode).toBe('fr');
  });

  it('sells a record that names only its imprint under the imprint', async () => {
    const draft = await read(
      record(
        '',
        '<PublishingDetail><Imprint><ImprintName>DUNOD</ImprintName></Imprint></PublishingDetail>',
      ),
    );
    expect(draft.publisher).toBe('DUNOD');
    expect(draft.imprint).toBe('DUNOD');
  });

  it('reads a collection’s part number from the level 01 element beside its name, as EDITEUR does', async () => {
    const draft = await read(
      record(`<Collection><CollectionType>10</CollectionType><TitleDetail><TitleType>01</TitleType>
        <TitleElement><TitleElementLevel>02</TitleElementLevel><TitleText>The Martin Beck series</TitleText></TitleElement>
        <TitleElement><TitleElementLevel>01</TitleElementLevel><PartNumber>1</PartNumber></TitleElement>
      </TitleDetail></Collection>`),
    );
    expect(draft.series).toBe('The Martin Beck series, 1');
  });

  it('takes a digital product’s notional page count when nothing better is given', async () => {
    const extent = (type: string, value: number) =>
      `<Extent><ExtentType>${type}</ExtentType><ExtentValue>${value}</ExtentValue><ExtentUnit>03</ExtentUnit></Extent>`;
    expect((await read(record(extent('10', 1234)))).numPages).toBe(1234);
    expect((await read(record(extent('10', 1234) + extent('00', 320)))).numPages).toBe(320);
  });
});
