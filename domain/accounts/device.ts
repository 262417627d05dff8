// Issue 20: My Account's signed-in devices name the browser and the system a session came
// from, read from its User-Agent (never trusted for anything else).
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** 'Firefox on Windows', or null parts when the User-Agent says nothing we know. */
export function describeDevice(userAgent: string | null): {
  browser: string | null;
  system: string | null;
} {
  const ua = userAgent ?? '';
  return {
    browser: BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? null,
    system: SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? null,
  };
}

/** last_seen is written at most this often, so that a busy session costs few writes. */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;
