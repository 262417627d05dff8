// What `npm run lighthouse` holds each page to (issue 13): the median of RUNS runs scores at
// least MIN_SCORE with a first contentful paint of at most MAX_FCP_MS.
export const MIN_SCORE = 95;
export const MAX_FCP_MS = 1800;
export const RUNS = 5;

/**
 * Whether the median of RUNS runs is already decided by the runs so far (issue 36): once more
 * than half of RUNS runs pass both limits, the median passes whatever the others give; once
 * more than half fall short on one limit, it fails. Three passing runs of five decide it, so
 * a page that passed three times is not loaded twice more for the same verdict. null: not yet.
 */
export function verdictOf(scores: number[], fcpMs: number[]): 'pass' | 'fail' | null {
  const majority = Math.floor(RUNS / 2) + 1;
  const lowScores = scores.filter((score) => !(score >= MIN_SCORE)).length;
  const slowPaints = fcpMs.filter((fcp) => !(fcp <= MAX_FCP_MS)).length;
  if (lowScores >= majority || slowPaints >= majority) return 'fail';
  const passed = scores.filter(
    (score, i) => score >= MIN_SCORE && (fcpMs[i] ?? Number.POSITIVE_INFINITY) <= MAX_FCP_MS,
  );
  return passed.length >= majority ? 'pass' : null;
}
