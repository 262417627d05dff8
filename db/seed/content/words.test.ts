import { describe, expect, it } from 'vitest';
import { bisacTree } from '#db/reference/bisac.ts';
import { createRandom } from './random.ts';
import {
  closerLengths,
  firstNames,
  lastNames,
  makeAuthorName,
  makeDescription,
  makePublisher,
  makeSubtitle,
  makeTitle,
  publishers,
  subjectSlugs,
} from './words.ts';

const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

describe('word lists', () => {
  it('cover exactly the top-level BISAC subjects', () => {
    expect([...subjectSlugs].sort()).toEqual(bisacTree.map((node) => node.slug).sort());
  });

  it('offer a broad, duplicate-free pool of names and publishers', () => {
    expect(firstNames.length).toBeGreaterThanOrEqual(40);
    expect(lastNames.length).toBeGreaterThanOrEqual(40);
    expect(new Set(firstNames).size).toBe(firstNames.length);
    expect(new Set(lastNames).size).toBe(lastNames.length);
    expect(new Set(publishers).size).toBe(publishers.length);
  });

  it('has a closing sentence for every short remainder, which exact word counts rely on', () => {
    const max = Math.max(...closerLengths);
    expect(closerLengths).toEqual(Array.from({ length: max }, (_, i) => i + 1));
  });
});

describe('makeTitle and makeSubtitle', () => {
  it.each(subjectSlugs)('produce filled-in text for %s', (slug) => {
    const rand = createRandom(17);
    for (let i = 0; i < 50; i++) {
      const title = makeTitle(rand, slug);
      const subtitle = makeSubtitle(rand, slug);
      expect(title).not.toMatch(/[{}]/);
      expect(subtitle).not.toMatch(/[{}]/);
      expect(title.length).toBeGreaterThan(2);
      expect(title.length).toBeLessThan(70);
    }
  });

  it('are deterministic for a given seed', () => {
    const titles = (seed: number) => {
      const rand = createRandom(seed);
      return Array.from({ length: 10 }, () => makeTitle(rand, 'mathematics'));
    };
    expect(titles(5)).toEqual(titles(5));
    expect(titles(5)).not.toEqual(titles(6));
  });

  it('refuse a subject they have no words for', () => {
    expect(() => makeTitle(createRandom(1), 'cooking')).toThrow(RangeError);
  });
});

describe('makeDescription', () => {
  it.each(subjectSlugs)('hits the requested word count exactly for %s', (slug) => {
    const rand = createRandom(23);
    for (const words of [1, 5, 12, 13, 30, 40, 99, 100, 101, 137, 180, 400]) {
      expect(wordCount(makeDescription(rand, slug, words))).toBe(words);
    }
  });

  it('ends on a whole sentence with no unfilled placeholders', () => {
    const rand = createRandom(29);
    for (const slug of subjectSlugs) {
      const text = makeDescription(rand, slug, rand.int(40, 180));
      expect(text).toMatch(/[.!?]$/);
      expect(text).not.toMatch(/[{}]/);
    }
  });

  it('reads as several distinct sentences in a typical 40-180 word blurb', () => {
    const text = makeDescription(createRandom(31), 'computers', 150);
    const sentences = text.split(/(?<=\.)\s+/);
    expect(sentences.length).toBeGreaterThan(5);
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it('is deterministic for a given seed', () => {
    const a = makeDescription(createRandom(99), 'history', 120);
    const b = makeDescription(createRandom(99), 'history', 120);
    expect(a).toBe(b);
  });

  it('refuses a word count that is not a positive integer', () => {
    expect(() => makeDescription(createRandom(1), 'history', 0)).toThrow(RangeError);
    expect(() => makeDescription(createRandom(1), 'history', 2.5)).toThrow(RangeError);
  });
});

describe('people and publishers', () => {
  it('builds author names from the lists, sometimes with a middle initial', () => {
    const rand = createRandom(41);
    const names = Array.from({ length: 200 }, () => makeAuthorName(rand));
    expect(names.some((name) => /^\S+ [A-Z]\. .+$/.test(name))).toBe(true);
    for (const name of names) expect(firstNames).toContain(name.split(' ')[0]);
  });

  it('picks publishers only from the invented imprints', () => {
    const rand = createRandom(43);
    for (let i = 0; i < 20; i++) expect(publishers).toContain(makePublisher(rand));
  });
});
