import { asciicastText, parseAsciicast, type Asciicast } from '@termpaste/contracts/asciicast';
import { AnsiSpans, Button, CopyButton, useAnsi, type AnsiLine } from '@termpaste/ui';
import { FileText, Pause, Play } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { CastTimeline, clock, hashTime } from './cast-screen';
import './cast-player.css';

/** The speeds a recording plays at. */
export const CAST_SPEEDS = [1, 2, 4] as const;
/** How often the screen moves while playing. */
const TICK_MS = 50;

/**
 * A terminal recording (asciicast v2) played in the page: play/pause, speed, a seek bar, `#t=…` links
 * (the page's own, or a reply's) seek it; its screen is text (selectable, copyable), and FULL TEXT shows
 * all its output. A recording that cannot be read shows `fallback`.
 */
export function CastPlayer({
  content,
  rawHref,
  fallback,
}: {
  content: string;
  rawHref?: string;
  fallback: ReactNode;
}) {
  const cast = useMemo(() => {
    const parsed = parseAsciicast(content);
    return 'error' in parsed ? null : parsed;
  }, [content]);
  if (!cast) return <>{fallback}</>;
  return <Player cast={cast} rawHref={rawHref} />;
}

function Player({ cast, rawHref }: { cast: Asciicast; rawHref?: string }) {
  const { events, duration, header } = cast;
  const timeline = useMemo(() => new CastTimeline(events), [events]);
  const [time, setTime] = useState(() => Math.min(hashTime(window.location.hash) ?? 0, duration));
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const [fullText, setFullText] = useState(false);
  const screenRef = useRef<HTMLPreElement>(null);

  const seek = useCallback(
    (seconds: number) => setTime(Math.max(0, Math.min(seconds, duration))),
    [duration],
  );

  // A `#t=42` link (the address, or one in a reply) seeks there: the router's hash, and a plain anchor's.
  const { hash } = useLocation();
  useEffect(() => {
    const at = hashTime(hash);
    if (at === null) return;
    seek(at);
  }, [hash, seek]);
  useEffect(() => {
    const onHash = () => {
      const at = hashTime(window.location.hash);
      if (at === null) return;
      seek(at);
      screenRef.current?.scrollIntoView({ block: 'nearest' });
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [seek]);

  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const elapsed = ((now - last) / 1000) * speed;
      last = now;
      setTime((previous) => {
        const next = Math.min(previous + elapsed, duration);
        if (next >= duration) setPlaying(false);
        return next;
      });
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [playing, speed, duration]);

  const screen = timeline.at(time).screen(header.height);
  const ansi = useAnsi(true);
  const lines: AnsiLine[] | null = ansi ? ansi.lines(screen) : null;
  const text = useMemo(() => asciicastText(events), [events]);
  const plainScreen = () => screen.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex

  const toggle = () => {
    if (!playing && time >= duration) setTime(0);
    setPlaying(!playing);
  };
  const linkAtTime = () => {
    const url = new URL(window.location.href);
    url.hash = `t=${Math.floor(time)}`;
    return url.href;
  };

  return (
    <section className="cast" aria-label="Terminal recording">
      <div className="cv-toolbar cast-toolbar">
        <span className="cv-toolbar__info">
          <Button
            variant="ghost"
            size="sm"
            onClick={toggle}
            aria-label={playing ? 'Pause' : 'Play'}
            aria-pressed={playing}
          >
            {playing ? <Pause size={12} aria-hidden="true" /> : <Play size={12} aria-hidden="true" />}
            {playing ? 'PAUSE' : 'PLAY'}
          </Button>
          <span role="group" aria-label="Speed" className="cast-speeds">
            {CAST_SPEEDS.map((value) => (
              <Button
                key={value}
                variant={speed === value ? 'outline' : 'ghost'}
                size="sm"
                aria-pressed={speed === value}
                onClick={() => setSpeed(value)}
              >
                {value}×
              </Button>
            ))}
          </span>
          <span className="forum-muted cast-clock" data-testid="cast-clock">
            {clock(time)} / {clock(duration)}
          </span>
        </span>
        <span className="cv-toolbar__actions">
          <CopyButton text={linkAtTime} label="LINK AT TIME" aria-label="Copy a link at this time" />
          <CopyButton text={plainScreen} label="COPY SCREEN" aria-label="Copy the screen as text" />
          <Button variant="ghost" size="sm" aria-pressed={fullText} onClick={() => setFullText(!fullText)}>
            <FileText size={12} aria-hidden="true" />
            FULL TEXT
          </Button>
          {rawHref && (
            <a
              href={rawHref}
              target="_blank"
              rel="noopener noreferrer"
              className="tp-button tp-button--ghost tp-button--sm"
            >
              RAW
            </a>
          )}
        </span>
      </div>
      <input
        type="range"
        className="cast-seek"
        min={0}
        max={duration}
        step={0.1}
        value={time}
        aria-label="Seek"
        aria-valuetext={clock(time)}
        onChange={(event) => seek(Number(event.target.value))}
      />
      <pre
        ref={screenRef}
        className="cast-screen"
        data-testid="cast-screen"
        tabIndex={0}
        aria-label="Recording screen"
        style={{ minHeight: `${Math.min(header.height, 40) * 1.4}em` }}
      >
        {lines
          ? lines.map((line, index) => (
              <span key={index}>
                {index > 0 && '\n'}
                <AnsiSpans line={line} />
              </span>
            ))
          : plainScreen()}
      </pre>
      {fullText && (
        <div className="cast-text">
          <div className="cv-toolbar">
            <span className="cv-toolbar__info">FULL TEXT</span>
            <CopyButton text={text} label="COPY TEXT" aria-label="Copy the full text" />
          </div>
          <pre
            className="cast-screen"
            tabIndex={0}
            data-testid="cast-text"
            aria-label="Full text of the recording"
          >
            {text}
          </pre>
        </div>
      )}
    </section>
  );
}
