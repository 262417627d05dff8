import { describe, expect, it } from 'vitest';
import { byteRange } from './byte-range.ts';

describe('byteRange (issue 5: ranges of a PDF for pdf.js)', () => {
  it('no header, or one we do not serve, is the whole file', () => {
    expect(byteRange(null, 100)).toEqual({ kind: 'whole' });
    expect(byteRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'whole' });
    expect(byteRange('items=0-1', 100)).toEqual({ kind: 'whole' });
  });

  it('a start and end, an open end, and a suffix', () => {
    expect(byteRange('bytes=10-19', 100)).toEqual({ kind: 'partial', start: 10, end: 19 });
    expect(byteRange('bytes=90-', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(byteRange('bytes=50-500', 100)).toEqual({ kind: 'partial', start: 50, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
  });

  it('a range past the end cannot be satisfied', () => {
    expect(byteRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=20-10', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
  });
});
