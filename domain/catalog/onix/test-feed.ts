import { readFileSync } from 'node:fs';
import { type FeedEvent, readOnixFeed } from './feed-reader.ts';

/** A string as a stream of small chunks, so tests cross chunk boundaries as files do. */
export async function* chunks(text: string, size = 97): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

export async function feedEvents(text: string): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for await (const event of readOnixFeed(chunks(text))) events.push(event);
  return events;
}

export const fixture = (name: string): string =>
  readFileSync(new URL(`../../../tests/fixtures/onix/${name}`, import.meta.url), 'utf8');
