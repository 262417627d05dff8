import { useEffect, useId, useRef, useState } from 'react';
import { type Sentence, sentencesOf } from '#domain/reading/sentences.ts';
import { useT } from '#web/i18n/use-t.ts';

/** Speeds offered, as the browser's speech rate (1 is the voice's usual pace). */
const RATES = [0.75, 1, 1.25, 1.5, 2] as const;

type Status = 'stopped' | 'playing' | 'paused';

/**
 * Read aloud (issue 16) with the browser's own speech synthesis: from the sentence the page
 * starts in, one sentence at a time (some voices stop after about 15 seconds of one
 * utterance), each shown and followed across pages and into the next chapter; play, pause,
 * stop, speed and a voice in the book's language. Nothing leaves the browser.
 */
export function ReaderReadAloud({
  lang,
  chapter,
  onSentence,
  onChapterEnd,
  onStop,
  say,
}: {
  /** The book's language, for the voice and the sentence rules. */
  lang: string | undefined;
  /**
   * The chapter (or PDF page) shown now: its text, in which the sentences' offsets count, and
   * where the page shown starts in it.
   */
  chapter(): { text: string; from: number } | null;
  /** A sentence is being spoken: show it, on whichever page it is. */
  onSentence(sentence: Sentence): void;
  /** The chapter is read: open the next one; false at the end of the book. */
  onChapterEnd(): Promise<boolean>;
  onStop(): void;
  say(text: string): void;
}) {
  const t = useT();
  const ids = useId();
  // Known once in the browser: the server has no speech, and the page it sends must be the
  // one the browser first draws (a difference is a hydration error).
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => setSupported('speechSynthesis' in window), []);
  const [status, setStatus] = useState<Status>('stopped');
  const [rate, setRate] = useState<number>(1);
  const [voices, setVoices] = useState<SpeechSynthesisVoice[]>([]);
  const [voiceName, setVoiceName] = useState('');
  const run = useRef(0);
  const settings = useRef({ rate, voiceName, voices });
  settings.current = { rate, voiceName, voices };

  useEffect(() => {
    if (!supported) return;
    const primary = (lang ?? '').split('-')[0]!.toLowerCase();
    const load = () =>
      setVoices(
        speechSynthesis
          .getVoices()
          .filter((voice) => !primary || voice.lang.toLowerCase().split(/[-_]/)[0] === primary),
      );
    load();
    speechSynthesis.addEventListener('voiceschanged', load);
    return () => speechSynthesis.removeEventListener('voiceschanged', load);
  }, [supported, lang]);

  // Leaving the reader stops the voice.
  useEffect(
    () => () => {
      run.current += 1;
      if (supported) speechSynthesis.cancel();
    },
    [supported],
  );

  if (supported === null) return null;
  if (!supported) return <p>{t('reader.readAloud.unavailable')}</p>;

  const stop = () => {
    run.current += 1;
    speechSynthesis.cancel();
    setStatus('stopped');
    onStop();
  };

  const speakFrom = (sentences: Sentence[], index: number, mine: number) => {
    if (run.current !== mine) return;
    const sentence = sentences[index];
    if (!sentence) {
      void onChapterEnd().then(async (more) => {
        if (run.current !== mine) return;
        if (!more) {
          setStatus('stopped');
          onStop();
          say(t('reader.readAloud.finished'));
          return;
        }
        // The next chapter is laid out before its text is read.
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
        const next = chapter();
        speakFrom(next ? sentencesOf(next.text, lang) : [], 0, mine);
      });
      return;
    }
    const utterance = new SpeechSynthesisUtterance(sentence.text);
    const { rate: speed, voiceName: name, voices: known } = settings.current;
    utterance.rate = speed;
    if (lang) utterance.lang = lang;
    const voice = known.find((one) => one.name === name);
    if (voice) utterance.voice = voice;
    utterance.onstart = () => {
      if (run.current === mine) onSentence(sentence);
    };
    utterance.onend = () => speakFrom(sentences, index + 1, mine);
    utterance.onerror = (event) => {
      if (run.current !== mine || event.error === 'interrupted' || event.error === 'canceled')
        return;
      run.current += 1;
      setStatus('stopped');
      onStop();
      say(t('reader.readAloud.failed'));
    };
    speechSynthesis.speak(utterance);
  };

  const play = () => {
    if (status === 'paused') {
      speechSynthesis.resume();
      setStatus('playing');
      return;
    }
    const shown = chapter();
    if (!shown) return;
    speechSynthesis.cancel();
    run.current += 1;
    setStatus('playing');
    speakFrom(sentencesOf(shown.text, lang, shown.from), 0, run.current);
  };

  return (
    <div className="reader-read-aloud stack-sm">
      <div className="reader-notebook__actions">
        {status === 'playing' ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              speechSynthesis.pause();
              setStatus('paused');
            }}
          >
            {t('reader.readAloud.pause')}
          </button>
        ) : (
          <button type="button" className="button button--secondary" onClick={play}>
            {status === 'paused' ? t('reader.readAloud.resume') : t('reader.readAloud.play')}
          </button>
        )}
        <button
          type="button"
          className="button button--secondary"
          onClick={stop}
          disabled={status === 'stopped'}
        >
          {t('reader.readAloud.stop')}
        </button>
      </div>
      <label htmlFor={`${ids}-rate`}>{t('reader.readAloud.speed')}</label>
      <select
        id={`${ids}-rate`}
        value={rate}
        onChange={(event) => setRate(Number(event.target.value))}
      >
        {RATES.map((value) => (
          <option key={value} value={value}>
            {t('reader.readAloud.rate', { rate: value })}
          </option>
        ))}
      </select>
      <label htmlFor={`${ids}-voice`}>{t('reader.readAloud.voice')}</label>
      <select
        id={`${ids}-voice`}
        value={voiceName}
        onChange={(event) => setVoiceName(event.target.value)}
      >
        <option value="">{t('reader.readAloud.defaultVoice')}</option>
        {voices.map((voice) => (
          <option key={voice.name} value={voice.name}>
            {voice.name}
          </option>
        ))}
      </select>
      {voices.length === 0 ? <p>{t('reader.readAloud.noVoice')}</p> : null}
    </div>
  );
}
