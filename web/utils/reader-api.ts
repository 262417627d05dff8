// The reader's calls to /api/reading/{productId}/… (api/reading/routes.ts), with the CSRF
// header writes need. A 403 means access ended since the page opened: the reader closes.
import type { AnnotationKind, HighlightColour } from '#domain/reading/annotation-rules.ts';
import type { Annotation } from '#domain/reading/annotations.ts';
import type { ExportFormat } from '#domain/reading/notes-export.ts';
import type { ReaderSettings } from '#domain/reading/reader-settings.ts';
import type { ReaderPart } from '#domain/reading/types.ts';
import {
  localAnnotation,
  type NewAnnotation,
  type PendingChange,
  temporaryId,
  withChange,
  withPending,
} from '#web/reading/pending-annotations.ts';

export type ReaderApi = {
  part(part: number): Promise<ReaderPart>;
  search(
    query: string,
  ): Promise<{ part: number; occurrence: number; before: string; match: string; after: string }[]>;
  /**
   * Saves the place on the server; without a network it is kept on this device instead
   * (pendingPosition) and no error is raised.
   */
  savePosition(
    position: { part: number; progression: number; readAt?: string },
    keepalive?: boolean,
  ): Promise<void>;
  /**
   * Sends what waited on this device while offline (the place, then highlights, notes and
   * bookmarks in the order they were made): what was saved now, or null when nothing waited.
   */
  flushPending(): Promise<FlushResult>;
  /** The place read last while the server could not be reached, if any. */
  pendingPosition(): { part: number; progression: number } | null;
  /**
   * Calls back when another tab of this book changes what waits on this device (it made a
   * highlight offline, or sent the waiting ones): this tab's list is then out of date.
   */
  watchPending(changed: () => void): () => void;
  allow(
    request: { kind: 'copy'; characters: number } | { kind: 'print'; from: number; to: number },
  ): Promise<{ allowed: boolean; message: string; used: number; limit: number }>;
  /** The reader's highlights and bookmarks in this book (issue 16), each located now. */
  annotations(): Promise<Annotation[]>;
  /**
   * Without a network the highlight waits on this device (`exact`: its words, shown until it
   * is saved) and comes back with a temporary id below zero; so do changes and removals.
   */
  addAnnotation(input: {
    kind: AnnotationKind;
    part: number;
    start: number;
    end: number;
    colour?: HighlightColour;
    exact?: string;
  }): Promise<Annotation>;
  changeAnnotation(
    id: number,
    change: { colour?: HighlightColour; note?: string | null },
  ): Promise<Annotation>;
  removeAnnotation(id: number): Promise<void>;
  /**
   * The reader's notes as a file to save (issue 16): its name and contents, how many
   * highlights and bookmarks it holds and how many quotes the copy allowance kept out.
   */
  exportNotes(format: ExportFormat): Promise<{
    file: Blob;
    fileName: string;
    count: number;
    leftOut: number;
    /** Characters of the copy allowance used now, the quotes exported counted. */
    copyUsed: number | null;
  }>;
  /** Saves the reading settings for every device (issue 16): PUT /api/reading/settings. */
  saveSettings(settings: ReaderSettings, keepalive?: boolean): Promise<void>;
};

/**
 * What sending the changes made offline did: the place saved, the changes saved, and those
 * the server refused (removed on another device meanwhile, say), with its first reason.
 */
export type FlushResult = {
  position: boolean;
  annotations: number;
  refused: number;
  reason: string | null;
} | null;

export class ReadingClosed extends Error {}

/** A call the server refused, with the reason it gave, in the reader's language. */
export class ReaderCallRefused extends Error {}

/**
 * The URL of a reader's call about a book, as the reader makes it (the service worker keeps
 * parts under these same URLs, web/reading/offline-reading.ts).
 */
export function readerCallUrl(
  productId: number,
  courseMemberId: number | null,
  path: string,
  params = '',
): string {
  const query = courseMemberId === null ? '' : `coursemember_id=${courseMemberId}`;
  const search = [query, params].filter(Boolean).join('&');
  return `/api/reading/${productId}${path}${search ? `?${search}` : ''}`;
}

/**
 * Whose book, in this browser: what waits on the device is the reader's own, and is sent only
 * while they are the one signed in (a campus computer is shared; another student opening the
 * same book must never send it, or see it).
 */
type BookOf = `${number}.${number}`;
const bookOf = (userId: number, productId: number): BookOf => `${userId}.${productId}`;

/** Where a place read offline waits to be saved (issue 16: "sync when back online"). */
const pendingKey = (book: BookOf) => `shelfmark.reader.pendingPosition.${book}`;

/** Where highlights, notes and bookmarks made offline wait to be saved, in order. */
const pendingAnnotationsKey = (book: BookOf) => `shelfmark.reader.pendingAnnotations.${book}`;

function pendingAnnotations(book: BookOf): PendingChange[] {
  try {
    const value = JSON.parse(localStorage.getItem(pendingAnnotationsKey(book)) ?? '[]');
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

function keepPendingAnnotations(book: BookOf, pending: PendingChange[]): void {
  if (pending.length === 0) localStorage.removeItem(pendingAnnotationsKey(book));
  else localStorage.setItem(pendingAnnotationsKey(book), JSON.stringify(pending));
}

/** Whether a call failed for want of a network (fetch rejects with a TypeError). */
const offline = (error: unknown) => error instanceof TypeError;

/** The place read last while the server could not be reached, if any. */
function pendingPosition(
  book: BookOf,
): { part: number; progression: number; readAt?: string } | null {
  try {
    const value = JSON.parse(localStorage.getItem(pendingKey(book)) ?? 'null');
    return value && Number.isInteger(value.part) && typeof value.progression === 'number'
      ? {
          part: value.part,
          progression: value.progression,
          ...(typeof value.readAt === 'string' ? { readAt: value.readAt } : {}),
        }
      : null;
  } catch {
    return null;
  }
}

export function readerApi(
  productId: number,
  csrfToken: string,
  courseMemberId: number | null,
  /** The reader signed in: what waits on this device is theirs. */
  userId: number,
): ReaderApi {
  const book = bookOf(userId, productId);
  const url = (path: string, params = '') => readerCallUrl(productId, courseMemberId, path, params);
  const send = async (input: string, init: RequestInit = {}) => {
    const response = await fetch(input, {
      credentials: 'same-origin',
      ...init,
      headers: {
        Accept: 'application/vnd.api+json',
        ...(init.body ? { 'Content-Type': 'application/vnd.api+json' } : {}),
        'X-CSRFToken': csrfToken,
        ...init.headers,
      },
    });
    if (response.status === 403) {
      const body = await response.json().catch(() => null);
      throw new ReadingClosed(body?.errors?.[0]?.detail ?? '');
    }
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      const detail = body?.errors?.[0]?.detail;
      throw Object.assign(
        typeof detail === 'string' && detail
          ? new ReaderCallRefused(detail)
          : new Error(`reader call failed: ${response.status}`),
        { status: response.status },
      );
    }
    return response;
  };
  const call = async (input: string, init: RequestInit = {}) => {
    const response = await send(input, init);
    return response.status === 204 ? null : response.json();
  };
  // The list as last shown, the changes waiting offline applied (for a change made offline).
  let shown: Annotation[] = [];
  /** The list as the server gave it last (shown again, with what waits, without a network). */
  let fromServer: Annotation[] | null = null;
  const postAnnotation = async (
    input: NewAnnotation & { note?: string; clientKey?: string },
  ): Promise<Annotation> => {
    const body = await call(url('/annotations'), {
      method: 'POST',
      body: JSON.stringify({ data: { type: 'annotation', attributes: input } }),
    });
    return { id: Number(body.data.id), ...body.data.attributes };
  };
  const patchAnnotation = async (
    id: number,
    change: { colour?: HighlightColour; note?: string | null },
  ): Promise<Annotation> => {
    const body = await call(url(`/annotations/${id}`), {
      method: 'PATCH',
      body: JSON.stringify({ data: { type: 'annotation', attributes: change } }),
    });
    return { id: Number(body.data.id), ...body.data.attributes };
  };
  // Highlights made offline and saved since: their temporary ids and the server's.
  const savedIds = new Map<number, number>();
  let flushing: Promise<FlushResult> | null = null;
  const flushOnce = async (): Promise<FlushResult> => {
    const position = pendingPosition(book);
    let pending = pendingAnnotations(book);
    if (!position && pending.length === 0) return null;
    let positionSaved = false;
    if (position) {
      await api.savePosition(position);
      positionSaved = pendingPosition(book) === null;
    }
    let saved = 0;
    let refused = 0;
    let reason: string | null = null;
    while (pending.length > 0) {
      const item = pending[0]!;
      try {
        if (item.op === 'add') {
          const made = await postAnnotation({
            ...item.input,
            ...(item.note ? { note: item.note } : {}),
            ...(item.key ? { clientKey: item.key } : {}),
          });
          // A change made to it meanwhile, by its temporary id, goes to its saved one.
          savedIds.set(item.id, made.id);
        } else if (item.op === 'change') await patchAnnotation(item.id, item.change);
        else await call(url(`/annotations/${item.id}`), { method: 'DELETE' });
        saved += 1;
      } catch (error) {
        // No network, access ended, or the server not answering (5xx): the rest waits. A
        // refusal (4xx: removed on another device, its words gone) is the server's last word
        // on that one change.
        const status = (error as { status?: number }).status;
        if (offline(error) || error instanceof ReadingClosed || !status || status >= 500) break;
        // Said to the reader: a change they made is not kept, and why.
        refused += 1;
        reason ??= error instanceof ReaderCallRefused ? error.message : null;
      }
      // Only the change just sent leaves the list, as it is now (more may have been added; a
      // note given meanwhile to the highlight just saved becomes a change of the saved one).
      const now = pendingAnnotations(book);
      const first = now[0];
      const rest = first && first.op === item.op && first.id === item.id ? now.slice(1) : now;
      const savedId = savedIds.get(item.id);
      if (
        first?.op === 'add' &&
        item.op === 'add' &&
        savedId !== undefined &&
        JSON.stringify(first) !== JSON.stringify(item)
      )
        rest.unshift({
          op: 'change',
          id: savedId,
          change: {
            note: first.note,
            ...(first.input.colour ? { colour: first.input.colour } : {}),
          },
        });
      keepPendingAnnotations(book, rest);
      pending = rest;
    }
    return { position: positionSaved, annotations: saved, refused, reason };
  };
  const api: ReaderApi = {
    async part(part) {
      return (await call(url(`/parts/${part}`))).data.attributes;
    },
    async search(q) {
      const body = await call(url('/search', `q=${encodeURIComponent(q)}`));
      return body.data.map((hit: { attributes: unknown }) => hit.attributes);
    },
    async savePosition(position, keepalive = false) {
      try {
        await call(url('/position'), {
          method: 'PUT',
          keepalive,
          body: JSON.stringify({ data: { type: 'reading-position', attributes: position } }),
        });
      } catch (error) {
        // No network (fetch rejects with a TypeError): the place waits on this device and is
        // sent when the network is back (flushPosition). A refusal is the server's answer.
        if (!(error instanceof TypeError)) throw error;
        localStorage.setItem(
          pendingKey(book),
          JSON.stringify({ readAt: new Date().toISOString(), ...position }),
        );
        return;
      }
      localStorage.removeItem(pendingKey(book));
    },

    async annotations() {
      let list: Annotation[];
      try {
        const body = await call(url('/annotations'));
        list = body.data.map((item: { id: string; attributes: Omit<Annotation, 'id'> }) => ({
          id: Number(item.id),
          ...item.attributes,
        }));
        fromServer = list;
      } catch (error) {
        // Without a network, the list the server gave last, with what waits on this device
        // now (another tab made a highlight offline).
        if (!offline(error) || fromServer === null) throw error;
        list = fromServer;
      }
      shown = withPending(list, pendingAnnotations(book), new Date().toISOString());
      return shown;
    },
    async addAnnotation({ exact = '', ...input }) {
      try {
        const made = await postAnnotation(input);
        shown = [...shown, made];
        fromServer = fromServer ? [...fromServer, made] : null;
        return made;
      } catch (error) {
        if (!offline(error)) throw error;
        const pending = pendingAnnotations(book);
        const add = {
          op: 'add' as const,
          id: temporaryId(pending),
          input,
          exact,
          at: new Date().toISOString(),
          note: null,
          key: typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : undefined,
        };
        keepPendingAnnotations(book, withChange(pending, add));
        const made = localAnnotation(add);
        shown = [...shown, made];
        return made;
      }
    },
    async changeAnnotation(given, change) {
      const id = savedIds.get(given) ?? given;
      if (id > 0) {
        try {
          const changed = await patchAnnotation(id, change);
          shown = shown.map((item) => (item.id === id ? changed : item));
          fromServer = fromServer?.map((item) => (item.id === id ? changed : item)) ?? null;
          return changed;
        } catch (error) {
          if (!offline(error)) throw error;
        }
      }
      const pending = withChange(pendingAnnotations(book), { op: 'change', id, change });
      keepPendingAnnotations(book, pending);
      const now = new Date().toISOString();
      const changed = withPending(shown, [{ op: 'change', id, change }], now).find(
        (item) => item.id === id,
      );
      if (!changed) throw new Error(`no annotation ${id}`);
      shown = shown.map((item) => (item.id === id ? changed : item));
      return changed;
    },
    async removeAnnotation(given) {
      const id = savedIds.get(given) ?? given;
      if (id > 0) {
        try {
          await call(url(`/annotations/${id}`), { method: 'DELETE' });
          shown = shown.filter((item) => item.id !== id);
          fromServer = fromServer?.filter((item) => item.id !== id) ?? null;
          return;
        } catch (error) {
          if (!offline(error)) throw error;
        }
      }
      keepPendingAnnotations(book, withChange(pendingAnnotations(book), { op: 'remove', id }));
      shown = shown.filter((item) => item.id !== id);
    },
    pendingPosition: () => pendingPosition(book),
    watchPending(changed) {
      const key = pendingAnnotationsKey(book);
      const listener = (event: StorageEvent) => {
        if (event.key === key || event.key === null) changed();
      };
      window.addEventListener('storage', listener);
      return () => window.removeEventListener('storage', listener);
    },
    flushPending() {
      // One at a time, in this page and in every tab of this book (the Web Locks API): two
      // flushes reading the same waiting list would save each highlight twice.
      if (!flushing) {
        const run: Promise<FlushResult> =
          typeof navigator !== 'undefined' && navigator.locks
            ? navigator.locks
                .request(`shelfmark-reader-flush-${book}`, flushOnce)
                .then((result) => result)
            : flushOnce();
        flushing = run.finally(() => {
          flushing = null;
        });
      }
      return flushing;
    },
    async exportNotes(format) {
      const response = await send(url('/annotations/export'), {
        method: 'POST',
        body: JSON.stringify({ data: { type: 'notesExport', attributes: { format } } }),
      });
      const disposition = response.headers.get('Content-Disposition') ?? '';
      const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
      return {
        file: await response.blob(),
        fileName: encoded
          ? decodeURIComponent(encoded)
          : `notes.${format === 'csv' ? 'csv' : 'md'}`,
        count: Number(response.headers.get('X-Notes-Count') ?? 0),
        leftOut: Number(response.headers.get('X-Quotes-Left-Out') ?? 0),
        copyUsed: response.headers.has('X-Copy-Used')
          ? Number(response.headers.get('X-Copy-Used'))
          : null,
      };
    },
    async saveSettings(settings, keepalive = false) {
      await call('/api/reading/settings', {
        method: 'PUT',
        keepalive,
        body: JSON.stringify({ data: { type: 'reader-settings', attributes: settings } }),
      });
    },
    async allow(request) {
      const { kind, ...attributes } = request;
      const body = await call(url(`/${kind}`), {
        method: 'POST',
        body: JSON.stringify({ data: { type: kind, attributes } }),
      });
      return body.data.attributes;
    },
  };
  return api;
}
