import { describe, expect, it } from 'vitest';
import { pdfBodyTextSize, pdfZoomRange, READABLE_TEXT_PX, readablePdfZoom } from './pdf-zoom.ts';

const line = (str: string, height: number) => ({
  str,
  height,
  transform: [height, 0, 0, height, 72, 700],
});

describe('a PDF page readable on a phone (issue 38)', () => {
  it('the running text is the size that carries the most characters, not a heading or the page number', () => {
    expect(
      pdfBodyTextSize([
        line('Chapter One', 18),
        line('The cell is the smallest unit of life that can replicate.', 11),
        line('Most cells are too small to be seen without a microscope.', 11),
        line('12', 9),
      ]),
    ).toBe(11);
  });

  it('a page without text (a scan) has no running text size, and fits the width', () => {
    expect(pdfBodyTextSize([line('', 11), line('   ', 11)])).toBeNull();
    expect(readablePdfZoom({ pageWidth: 612, fitWidth: 300, bodyTextSize: null })).toBe(1);
  });

  it('on a phone, an 11-point Letter page opens zoomed so that its text is drawn at 12 CSS px', () => {
    const zoom = readablePdfZoom({ pageWidth: 612, fitWidth: 300, bodyTextSize: 11 });
    expect(zoom).toBeGreaterThan(2);
    // The text's size on screen at that zoom.
    expect((11 * 300 * zoom) / 612).toBeCloseTo(READABLE_TEXT_PX);
  });

  it('on a screen where the page fitted to its width is readable already, it is fitted (zoom 1)', () => {
    expect(readablePdfZoom({ pageWidth: 612, fitWidth: 800, bodyTextSize: 11 })).toBe(1);
  });

  it('the zoom goes from the fitted width to twice the readable zoom (4 at least)', () => {
    expect(pdfZoomRange(2.2)).toEqual({ min: 1, max: 5 });
    expect(pdfZoomRange(1)).toEqual({ min: 1, max: 4 });
  });
});
