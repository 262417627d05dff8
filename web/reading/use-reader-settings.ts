import { type RefObject, useEffect, useRef, useState } from 'react';
import { type ReaderSettings, readerSettingsFrom } from '#domain/reading/reader-settings.ts';
import { useT } from '#web/i18n/use-t.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';

/** What waits its moment to be saved on the server: sent at once when the page goes. */
export type UnsavedReading = {
  settings?: ReaderSettings;
  position?: { part: number; progression: number };
};

/** This browser's copy of the reading settings: for a reader never saved on the server yet. */
const SETTINGS_KEY = 'shelfmark.reader';

function localSettings(): ReaderSettings {
  try {
    return readerSettingsFrom(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}'));
  } catch {
    return readerSettingsFrom(null);
  }
}

/**
 * The reader's settings (issue 16): the server's, which follow the reader to every device, or
 * this browser's copy until the first change is saved; each change kept in the browser and
 * saved a moment later (`unsaved` holds it meanwhile). Null until hydrated.
 */
export function useReaderSettings({
  savedSettings,
  api,
  say,
  unsaved,
}: {
  savedSettings: ReaderSettings | null;
  api: ReaderApi;
  say(text: string): void;
  unsaved: RefObject<UnsavedReading>;
}): [ReaderSettings | null, (settings: ReaderSettings) => void] {
  const t = useT();
  const [settings, setSettings] = useState<ReaderSettings | null>(null);
  // The server's settings follow the reader to every device; this browser's copy is used
  // until the first change is saved (issue 16).
  useEffect(() => setSettings(savedSettings ?? localSettings()), [savedSettings]);
  const settingsSaved = useRef<string | null>(null);
  useEffect(() => {
    if (!settings) return;
    const json = JSON.stringify(settings);
    localStorage.setItem(SETTINGS_KEY, json);
    if (settingsSaved.current === null) {
      settingsSaved.current = json;
      return;
    }
    if (settingsSaved.current === json) return;
    unsaved.current.settings = settings;
    const timer = window.setTimeout(() => {
      unsaved.current.settings = undefined;
      api.saveSettings(settings).then(
        () => {
          settingsSaved.current = json;
        },
        () => say(t('reader.settings.notSaved')),
      );
    }, 400);
    return () => window.clearTimeout(timer);
  }, [settings, api, say, t, unsaved]);
  return [settings, setSettings];
}
