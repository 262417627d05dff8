import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { bookFiles } from '#db/schema/catalog.ts';
import { readingAllowances, readingAnnotations } from '#db/schema/reading.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { buildEpub } from '#db/seed/content/epub.ts';
import { buildPdf } from '#db/seed/content/pdf.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { diskFileStore } from '#domain/reading/file-store.ts';
import { bookPartTexts } from '#domain/reading/service.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 16, study tools on the server: GET/POST /api/reading/{id}/annotations, PATCH and
// DELETE /api/reading/{id}/annotations/{annotationId}. Highlights and bookmarks are the
// reader's own, only while they may read the book, anchored in the book's own text.

let database: DatabaseHandle;
let dataDir: string;
beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-annotations-'));
  mkdirSync(path.join(dataDir, 'files'));
});
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function person(): Promise<SessionUser> {
  const userId = await createUser(database.db, {
    email: `${unique('annotator')}@example.test`,
    password: 'pw-123456',
    firstName: 'A',
    lastName: 'N',
  });
  return (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
}

async function book(
  paragraph = 'The cell is the unit of life. Every cell has a membrane.',
  copyPercent = '10',
) {
  const productId = await insertProduct(
    database.db,
    { productFileType: 'EPUB', drmCopyPercent: copyPercent, drmPrintPercent: '10' },
    { readerFile: false },
  );
  const epub = buildEpub({
    title: 'Cells',
    author: 'A',
    language: 'en',
    identifier: `urn:test:${productId}`,
    chapters: [
      { title: 'Chapter 1', paragraphs: [paragraph] },
      { title: 'Chapter 2', paragraphs: ['Proteins do the work of the cell.'] },
    ],
  });
  const name = `files/${unique('epub')}.epub`;
  writeFileSync(path.join(dataDir, name), epub);
  const [file] = await database.db
    .insert(bookFiles)
    .values({
      productId,
      title: 'Cells',
      extension: 'epub',
      type: 'READER',
      mediaType: 'application/epub+zip',
      storagePath: name,
      byteSize: epub.length,
      sha256: unique('sha'),
    })
    .returning({ id: bookFiles.id });
  return { productId, fileId: file!.id, name };
}

/** A PDF of three pages labelled i, 1, 2 (its /PageLabels): a PDF's parts are its pages. */
async function pdfBook() {
  const productId = await insertProduct(
    database.db,
    { productFileType: 'PDF', drmCopyPercent: '100', drmPrintPercent: '10' },
    { readerFile: false },
  );
  const pdf = buildPdf({
    title: 'Cells',
    author: 'A',
    pages: [
      ['Preface to the study of cells'],
      ['Chapter 1', 'The cell is the unit of life.', 'Every cell has a membrane.'],
      ['Proteins do the work of the cell.'],
    ],
    pageLabels: [
      { from: 0, style: 'r' },
      { from: 1, style: 'D' },
    ],
  });
  const name = `files/${unique('pdf')}.pdf`;
  writeFileSync(path.join(dataDir, name), pdf);
  await database.db.insert(bookFiles).values({
    productId,
    title: 'Cells',
    extension: 'pdf',
    type: 'READER',
    mediaType: 'application/pdf',
    storagePath: name,
    byteSize: pdf.length,
    sha256: unique('sha'),
  });
  return { productId };
}

async function own(userId: number, productId: number) {
  await database.db.insert(ownerships).values({
    userId,
    productId,
    source: 'purchase',
    startsAt: new Date('2020-01-01T00:00:00Z'),
  });
}

const as = (user: SessionUser | null, locale: 'en' | 'fr-CA' = 'en') =>
  testWebContext(database, { user, locale }, diskFileStore(dataDir));

const api = (
  user: SessionUser | null,
  method: string,
  pathname: string,
  body?: unknown,
  locale: 'en' | 'fr-CA' = 'en',
) =>
  handleApiRequest(
    new Request(`http://localhost${pathname}`, {
      method,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      headers: body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' },
    }),
    as(user, locale),
  );

const annotation = (attributes: Record<string, unknown>) => ({
  data: { type: 'annotation', attributes },
});

/** The text of part 0 as the reader shows it, and the offsets of some words in it. */
async function passage(user: SessionUser, productId: number, words: string, part = 0) {
  const { texts } = await bookPartTexts(
    testContext(database.db, { user }),
    diskFileStore(dataDir),
    productId,
    [part],
    { courseMemberId: null },
  );
  const text = texts.get(part)!;
  const start = text.indexOf(words);
  expect(start).toBeGreaterThanOrEqual(0);
  return { start, end: start + words.length };
}

describe('highlights and bookmarks API (issue 16: study tools, synced)', () => {
  it('a highlight with a note and a bookmark are kept for the reader, in reading order, found in the text', async () => {
    const reader = await person();
    const { productId } = await book();
    await own(reader.id, productId);
    const words = await passage(reader, productId, 'Every cell has a membrane.');
    const made = await api(
      reader,
      'POST',
      `/api/reading/${productId}/annotations`,
      annotation({ kind: 'highlight', part: 0, ...words, colour: 'green', note: '  Key idea  ' }),
    );
    expect(made.status).toBe(201);
    const highlight = (await made.json()).data;
    expect(highlight.attributes).toMatchObject({
      kind: 'highlight',
      colour: 'green',
      note: 'Key idea',
      part: 0,
      exact: 'Every cell has a membrane.',
      located: { ...words, exact: true },
    });
    const second = await passage(reader, productId, 'Proteins do the work', 1);
    const mark = await api(
      reader,
      'POST',
      `/api/reading/${productId}/annotations`,
      annotation({ kind: 'bookmark', part: 1, ...second, colour: 'pink', note: 'ignored' }),
    );
    expect(mark.status).toBe(201);
    expect((await mark.json()).data.attributes).toMatchObject({
      kind: 'bookmark',
      colour: null,
      note: null,
    });

    const listed = await (await api(reader, 'GET', `/api/reading/${productId}/annotations`)).json();
    expect(listed.meta.count).toBe(2);
    expect(
      listed.data.map((a: { attributes: { part: number; kind: string } }) => [
        a.attributes.part,
        a.attributes.kind,
      ]),
    ).toEqual([
      [0, 'highlight'],
      [1, 'bookmark'],
    ]);

    // Colour and note change; the note can be removed.
    const changed = await api(
      reader,
      'PATCH',
      `/api/reading/${productId}/annotations/${highlight.id}`,
      annotation({ colour: 'blue', note: null }),
    );
    expect(changed.status).toBe(200);
    expect((await changed.json()).data.attributes).toMatchObject({ colour: 'blue', note: null });
    expect(
      (await api(reader, 'DELETE', `/api/reading/${productId}/annotations/${highlight.id}`)).status,
    ).toBe(204);
    expect(
      (await (await api(reader, 'GET', `/api/reading/${productId}/annotations`)).json()).meta.count,
    ).toBe(1);
  });

  it('the quote stored is the book’s own text, and a new printing of the book moves it with its words or reports it lost', async () => {
    const reader = await person();
    const { productId, name } = await book();
    await own(reader.id, productId);
    const words = await passage(reader, productId, 'Every cell has a membrane.');
    const first = await (
      await api(
        reader,
        'POST',
        `/api/reading/${productId}/annotations`,
        annotation({ kind: 'highlight', part: 0, ...words }),
      )
    ).json();
    const gone = await passage(reader, productId, 'The cell is the unit');
    await api(
      reader,
      'POST',
      `/api/reading/${productId}/annotations`,
      annotation({ kind: 'highlight', part: 0, ...gone }),
    );
    const [row] = await database.db
      .select({ exact: readingAnnotations.exact, colour: readingAnnotations.colour })
      .from(readingAnnotations)
      .where(eq(readingAnnotations.id, Number(first.data.id)));
    expect(row).toEqual({ exact: 'Every cell has a membrane.', colour: 'yellow' });

    // The publisher's corrected file: a sentence added before, the first sentence reworded.
    const corrected = buildEpub({
      title: 'Cells',
      author: 'A',
      language: 'en',
      identifier: `urn:test:${productId}`,
      chapters: [
        {
          title: 'Chapter 1',
          paragraphs: ['A new preface sentence. Life is made of cells. Every cell has a membrane.'],
        },
        { title: 'Chapter 2', paragraphs: ['Proteins do the work of the cell.'] },
      ],
    });
    const newName = `files/${unique('epub')}.epub`;
    writeFileSync(path.join(dataDir, newName), corrected);
    await database.db
      .update(bookFiles)
      .set({ storagePath: newName, byteSize: corrected.length, sha256: unique('sha') })
      .where(eq(bookFiles.storagePath, name));
    const now = (await (await api(reader, 'GET', `/api/reading/${productId}/annotations`)).json())
      .data;
    const moved = await passage(reader, productId, 'Every cell has a membrane.');
    expect(moved.start).not.toBe(words.start);
    expect(
      now.map((a: { attributes: { exact: string; located: unknown } }) => [
        a.attributes.exact,
        a.attributes.located,
      ]),
    ).toEqual([
      ['The cell is the unit', null],
      ['Every cell has a membrane.', { ...moved, exact: true }],
    ]);
  });

  it('only the reader who may read the book (403 for others, as reading is), never another reader’s ids (404); a visitor must log in, in their language', async () => {
    const reader = await person();
    const other = await person();
    const { productId } = await book();
    await own(reader.id, productId);
    const words = await passage(reader, productId, 'Every cell has a membrane.');
    const made = await (
      await api(
        reader,
        'POST',
        `/api/reading/${productId}/annotations`,
        annotation({ kind: 'highlight', part: 0, ...words }),
      )
    ).json();
    const id = made.data.id;
    // Another reader who does not own the book: nothing to see or make.
    expect((await api(other, 'GET', `/api/reading/${productId}/annotations`)).status).toBe(403);
    expect(
      (
        await api(
          other,
          'POST',
          `/api/reading/${productId}/annotations`,
          annotation({ kind: 'highlight', part: 0, ...words }),
        )
      ).status,
    ).toBe(403);
    // Owning the book too does not open someone else's highlight.
    await own(other.id, productId);
    expect(
      (await (await api(other, 'GET', `/api/reading/${productId}/annotations`)).json()).meta.count,
    ).toBe(0);
    for (const method of ['PATCH', 'DELETE']) {
      const response = await api(
        other,
        method,
        `/api/reading/${productId}/annotations/${id}`,
        method === 'PATCH' ? annotation({ colour: 'pink' }) : undefined,
      );
      expect(response.status).toBe(404);
      expect((await response.json()).errors[0].detail).toBe(
        'This highlight or bookmark is not in your notebook: it may have been removed on another device.',
      );
    }
    const visitor = await api(
      null,
      'GET',
      `/api/reading/${productId}/annotations`,
      undefined,
      'fr-CA',
    );
    expect(visitor.status).toBe(403);
    expect((await visitor.json()).errors[0].detail).toMatch(/connect/i);
    // Nothing changed.
    const mine = (await (await api(reader, 'GET', `/api/reading/${productId}/annotations`)).json())
      .data;
    expect(mine.map((a: { attributes: { colour: string } }) => a.attributes.colour)).toEqual([
      'yellow',
    ]);
  });

  it('bad input is a clear 400 or 404 that changes nothing', async () => {
    const reader = await person();
    const { productId } = await book();
    await own(reader.id, productId);
    const url = `/api/reading/${productId}/annotations`;
    const bad: [unknown, string][] = [
      [
        annotation({ kind: 'highlight', part: 0, start: 5, end: 5 }),
        'reading.annotations.noPassage',
      ],
      [
        annotation({ kind: 'highlight', part: 0, start: 0, end: 999_999 }),
        'reading.annotations.noPassage',
      ],
      [
        annotation({ kind: 'highlight', part: 7, start: 0, end: 4 }),
        'reading.annotations.noPassage',
      ],
      [
        annotation({ kind: 'highlight', part: 0, start: 0, end: 4, colour: 'red' }),
        'error.invalid',
      ],
      [annotation({ kind: 'scribble', part: 0, start: 0, end: 4 }), 'error.invalid'],
      [annotation({ kind: 'highlight', part: 0, start: '0', end: 4 }), 'error.invalid'],
      [
        annotation({ kind: 'highlight', part: 0, start: 0, end: 4, note: 'x'.repeat(5001) }),
        'error.invalid',
      ],
      [
        annotation({ kind: 'highlight', part: 0, start: 0, end: 4, exact: 'forged' }),
        'error.invalid',
      ],
      [{ data: { type: 'reader-settings', attributes: {} } }, 'error.invalid'],
      ['{"data":', 'error.invalid'],
    ];
    for (const [body, code] of bad) {
      const response = await api(reader, 'POST', url, body, 'fr-CA');
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const error = (await response.json()).errors[0];
      expect(error.code).toBe(code);
      expect(error.detail).toBeTruthy();
    }
    for (const id of ['abc', '0', '99999999999', '1.5']) {
      expect((await api(reader, 'DELETE', `${url}/${id}`)).status).toBe(404);
    }
    expect((await api(reader, 'GET', '/api/reading/not-a-book/annotations')).status).toBe(404);
    const words = await passage(reader, productId, 'Every cell');
    const made = await (
      await api(reader, 'POST', url, annotation({ kind: 'bookmark', part: 0, ...words }))
    ).json();
    const patched = await api(
      reader,
      'PATCH',
      `${url}/${made.data.id}`,
      annotation({ note: 'a note' }),
    );
    expect(patched.status).toBe(400);
    expect((await patched.json()).errors[0].code).toBe('reading.annotations.bookmarkHasNoNote');
    expect((await api(reader, 'PATCH', `${url}/${made.data.id}`, annotation({}))).status).toBe(400);
    expect((await (await api(reader, 'GET', url)).json()).meta.count).toBe(1);
  });
});

describe('a highlight sent again by a device (issue 16: offline changes sync "without losing any")', () => {
  it('with the same client key it is the same highlight, never a second one; another reader’s key is theirs', async () => {
    const reader = await person();
    const other = await person();
    const { productId } = await book();
    await own(reader.id, productId);
    await own(other.id, productId);
    const url = `/api/reading/${productId}/annotations`;
    const words = await passage(reader, productId, 'Every cell has a membrane.');
    const body = annotation({
      kind: 'highlight',
      part: 0,
      ...words,
      clientKey: 'a1b2c3d4-e5f6-4789-8abc-0123456789ab',
    });
    const first = await api(reader, 'POST', url, body);
    const again = await api(reader, 'POST', url, body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect((await again.json()).data.id).toBe((await first.json()).data.id);
    // Twice at once: still one.
    await Promise.all([api(reader, 'POST', url, body), api(reader, 'POST', url, body)]);
    expect((await (await api(reader, 'GET', url)).json()).meta.count).toBe(1);
    expect((await api(other, 'POST', url, body)).status).toBe(201);
    expect((await (await api(other, 'GET', url)).json()).meta.count).toBe(1);
    // A key that is not one is refused.
    const bad = annotation({ kind: 'highlight', part: 0, ...words, clientKey: 'x y' });
    expect((await api(reader, 'POST', url, bad)).status).toBe(400);
  });
});

describe('highlights, notes and bookmarks in a PDF (issue 16: its pages are its parts)', () => {
  it('anchored in the text layer’s words of a page, listed with their page, exported with its printed label', async () => {
    const reader = await person();
    const other = await person();
    const { productId } = await pdfBook();
    await own(reader.id, productId);
    const url = `/api/reading/${productId}/annotations`;
    const words = await passage(reader, productId, 'Every cell has a membrane.', 1);
    // The page's text is its text layer's: lines end with a line break.
    const { texts } = await bookPartTexts(
      testContext(database.db, { user: reader }),
      diskFileStore(dataDir),
      productId,
      [1],
      { courseMemberId: null },
    );
    expect(texts.get(1)).toMatch(/^Chapter 1\nThe cell is the unit of life\.\nEvery cell/);
    const made = await api(
      reader,
      'POST',
      url,
      annotation({ kind: 'highlight', part: 1, ...words, colour: 'pink', note: 'Membranes' }),
    );
    expect(made.status).toBe(201);
    expect((await made.json()).data.attributes).toMatchObject({
      kind: 'highlight',
      part: 1,
      colour: 'pink',
      note: 'Membranes',
      exact: 'Every cell has a membrane.',
      located: { ...words, exact: true },
    });
    const top = await passage(reader, productId, 'Preface to the study', 0);
    expect(
      (await api(reader, 'POST', url, annotation({ kind: 'bookmark', part: 0, ...top }))).status,
    ).toBe(201);
    // A page the PDF does not have holds no passage.
    const missing = await api(
      reader,
      'POST',
      url,
      annotation({ kind: 'bookmark', part: 3, start: 0, end: 5 }),
      'fr-CA',
    );
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors[0].detail).toBeTruthy();

    const listed = (await (await api(reader, 'GET', url)).json()).data;
    expect(
      listed.map((a: { attributes: { part: number; kind: string } }) => [
        a.attributes.part,
        a.attributes.kind,
      ]),
    ).toEqual([
      [0, 'bookmark'],
      [1, 'highlight'],
    ]);
    expect((await api(other, 'GET', url)).status).toBe(403);

    const md = await (
      await api(reader, 'POST', `${url}/export`, {
        data: { type: 'notesExport', attributes: { format: 'markdown' } },
      })
    ).text();
    expect(md).not.toMatch(/^## /m);
    expect(md).toMatch(/\*\*Bookmark\*\* · page i · /);
    expect(md).toMatch(/\*\*Pink highlight\*\* · page 1 · /);
    expect(md).toContain('> Every cell has a membrane.');
    expect(md).toContain('Membranes');
  });
});

describe('exporting one’s notes (issue 16: Markdown or CSV, quotes within the copy allowance)', () => {
  const exportBody = (format: unknown) => ({
    data: { type: 'notesExport', attributes: { format } },
  });
  async function copied(userId: number, productId: number): Promise<number> {
    const [row] = await database.db
      .select({ n: readingAllowances.copiedCharacters })
      .from(readingAllowances)
      .where(eq(readingAllowances.userId, userId));
    return row?.n ?? 0;
  }

  it('Markdown: the highlight with its quote and note, the bookmark, by chapter; the quotes counted as copying once', async () => {
    const reader = await person();
    const { productId } = await book(undefined, '100');
    await own(reader.id, productId);
    const url = `/api/reading/${productId}/annotations`;
    const words = await passage(reader, productId, 'Every cell has a membrane.');
    await api(
      reader,
      'POST',
      url,
      annotation({ kind: 'highlight', part: 0, ...words, colour: 'green', note: 'Key *idea*' }),
    );
    const later = await passage(reader, productId, 'Proteins do the work', 1);
    await api(reader, 'POST', url, annotation({ kind: 'bookmark', part: 1, ...later }));

    const response = await api(reader, 'POST', `${url}/export`, exportBody('markdown'));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename=".+-notes\.md"/,
    );
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(response.headers.get('X-Notes-Count')).toBe('2');
    expect(response.headers.get('X-Quotes-Left-Out')).toBe('0');
    const md = await response.text();
    expect(md).toMatch(/^# My notes: /);
    expect(md).toContain('## Chapter 1');
    expect(md).toContain('**Green highlight**');
    expect(md).toContain('> Every cell has a membrane.');
    expect(md).toContain('My note:  \nKey \\*idea\\*');
    expect(md).toContain('## Chapter 2');
    expect(md).toContain('**Bookmark**');
    const counted = await copied(reader.id, productId);
    expect(counted).toBe('Every cell has a membrane.'.length + 'Proteins do the work'.length);
    // The reader is told how much of the allowance is used now, to show it at once.
    expect(response.headers.get('X-Copy-Used')).toBe(String(counted));

    // Again, as CSV: the same quotes, nothing more counted.
    const csv = await api(reader, 'POST', `${url}/export`, exportBody('csv'));
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    const rows = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(rows[0]).toBe('Kind,Colour,Chapter,Page,Quote,Note,Created,Changed');
    expect(rows[1]).toMatch(
      /^Highlight,Green,Chapter 1,\d*,Every cell has a membrane\.,Key \*idea\*,/,
    );
    expect(rows).toHaveLength(3);
    expect(await copied(reader.id, productId)).toBe(counted);
  });

  it('a quote the allowance has no room for stays out, says so in the reader’s language, and nothing is counted for it', async () => {
    const reader = await person();
    // 10 % of a short book: a handful of characters, less than the quote.
    const { productId } = await book();
    await own(reader.id, productId);
    const url = `/api/reading/${productId}/annotations`;
    const words = await passage(
      reader,
      productId,
      'The cell is the unit of life. Every cell has a membrane.',
    );
    await api(
      reader,
      'POST',
      url,
      annotation({ kind: 'highlight', part: 0, ...words, note: 'Ma note à moi' }),
    );
    const response = await api(reader, 'POST', `${url}/export`, exportBody('csv'), 'fr-CA');
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Quotes-Left-Out')).toBe('1');
    const text = await response.text();
    expect(text).toContain('Type,Couleur,Chapitre,Page,Citation,Note,Créé,Modifié');
    expect(text).toContain(
      'Citation laissée de côté : la limite de copie de ce livre ne le permet pas.',
    );
    expect(text).toContain('Ma note à moi');
    expect(text).not.toContain('Every cell has a membrane');
    expect(await copied(reader.id, productId)).toBe(0);
  });

  it('only the reader who may read the book; bad formats are a 400 that counts nothing', async () => {
    const reader = await person();
    const other = await person();
    const { productId } = await book(undefined, '100');
    await own(reader.id, productId);
    const url = `/api/reading/${productId}/annotations/export`;
    expect((await api(other, 'POST', url, exportBody('markdown'))).status).toBe(403);
    expect((await api(null, 'POST', url, exportBody('markdown'))).status).toBe(403);
    for (const body of [exportBody('pdf'), exportBody(1), { data: { type: 'x' } }, '{']) {
      const response = await api(reader, 'POST', url, body, 'fr-CA');
      expect(response.status).toBe(400);
      expect((await response.json()).errors[0].detail).toBeTruthy();
    }
    expect((await api(reader, 'GET', url)).status).toBe(405);
    expect(await copied(reader.id, productId)).toBe(0);
  });
});
