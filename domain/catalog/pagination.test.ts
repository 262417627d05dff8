import { describe, expect, it } from 'vitest';
import { pageItems, pageNumber, pageWindow, shownRange } from './pagination.ts';

const render = (current: number, pages: number) =>
  pageItems(current, pages)
    .map((i) => (i.kind === 'page' ? String(i.page) : '…'))
    .join(' ');

describe('pagination (spec 2 §9)', () => {
  it('shows up to 6 pages fully', () => {
    expect(render(1, 1)).toBe('1');
    expect(render(3, 6)).toBe('1 2 3 4 5 6');
  });
  it('otherwise first, ellipsis, neighbours, ellipsis, last', () => {
    expect(render(5, 10)).toBe('1 … 4 5 6 … 10');
  });
  it('no ellipsis where the neighbours touch the ends', () => {
    expect(render(1, 10)).toBe('1 2 … 10');
    expect(render(2, 10)).toBe('1 2 3 … 10');
    expect(render(10, 10)).toBe('1 … 9 10');
    expect(render(9, 10)).toBe('1 … 8 9 10');
  });
  it("shown range '(page-1)*100+1 - end'", () => {
    expect(shownRange(1, 250)).toEqual({ from: 1, to: 100 });
    expect(shownRange(3, 250)).toEqual({ from: 201, to: 250 });
    expect(shownRange(1, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe('pageNumber', () => {
  it('reads a page given in decimal digits', () => {
    expect(pageNumber('3')).toBe(3);
  });
  it.each([
    [null],
    [''],
    ['0'],
    ['-2'],
    ['0x10'],
    ['1e3'],
    ['2.5'],
    [' 2'],
  ])('reads %j as the first page', (raw) => {
    expect(pageNumber(raw)).toBe(1);
  });
});

describe('pageWindow (spec 2 §9 page size 100; issue 13: one page-count rule)', () => {
  it('counts pages of 100 and keeps the asked page within them', () => {
    expect(pageWindow(1, 0)).toEqual({ page: 1, pages: 1 });
    expect(pageWindow(1, 100)).toEqual({ page: 1, pages: 1 });
    expect(pageWindow(2, 101)).toEqual({ page: 2, pages: 2 });
    expect(pageWindow(9, 250)).toEqual({ page: 3, pages: 3 });
    expect(pageWindow(0, 250)).toEqual({ page: 1, pages: 3 });
    expect(pageWindow(Number.NaN, 250)).toEqual({ page: 1, pages: 3 });
    expect(pageWindow(2.7, 250)).toEqual({ page: 2, pages: 3 });
  });
});
