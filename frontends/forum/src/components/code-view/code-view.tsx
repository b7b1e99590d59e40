import { AnsiSpans, Button, CopyButton, cx, stripAnsi, toast } from '@termpaste/ui';
import { useVirtualizer } from '@tanstack/react-virtual';
import { FileText, Link2, MessageSquarePlus, WrapText } from 'lucide-react';
import { Link } from 'react-router-dom';
import {
  Fragment,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
} from 'react';
import type { TokenLine } from './tokens';
import { languageTitle } from './language-names';
import { lineHash, parseLineHash, type LineRange } from './line-range';
import { useAnsiLines } from './use-ansi-lines';
import { useHighlight } from './use-highlight';
import './code-view.css';

/** From this many lines on, only the lines on screen (and a few around) are in the page. */
export const VIRTUALIZE_FROM = 500;
/** A line's height before it is measured (px): 1.5 × the code's 13 px. */
const ESTIMATED_LINE_PX = 20;
const OVERSCAN = 30;

export interface CodeViewProps {
  text: string;
  /** A highlight.js language name, or `ansi` for terminal output; null (or `markdown`) shows plain lines. */
  language: string | null;
  /**
   * The paste's own view: clicking a line number selects it (shift-click a range) and sets `#L12` /
   * `#L12-L20`; such a hash on load or on a later link selects and scrolls to the lines; COPY LINK.
   */
  lineLinks?: boolean;
  /** The number of the first line (an excerpt of lines 12–20 starts at 12). */
  firstLine?: number;
  /** Line numbers link to the paste's lines (`#L12`) without selecting here: a reply's excerpt. */
  numbersLinkToPaste?: boolean;
  /** COPY (the text; terminal output without its escapes) and WRAP; RAW too when given its address. */
  toolbar?: boolean;
  rawHref?: string;
  /** Where the language's badge leads (its pastes), when it is a link. */
  languageHref?: string;
  /** An extra class for a line (a diff's added and removed lines), by its number. */
  lineClassName?: (lineNumber: number) => string | undefined;
  /** The view's accessible name. */
  label?: string;
  className?: string;
  /**
   * With `lineLinks`: COMMENT beside the selected lines (and the `c` key while the view has the focus)
   * calls this with them.
   */
  onComment?: (range: LineRange) => void;
  /** What shows under a line (its comments), when the view draws every line (not virtualised). */
  afterLine?: (lineNumber: number) => ReactNode;
}

/** The text's lines (a final line feed ends the last line, it does not start another). */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function Tokens({ line }: { line: TokenLine }): ReactNode {
  return line.map((token, index) =>
    token.className ? (
      <span key={index} className={token.className}>
        {token.text}
      </span>
    ) : (
      token.text
    ),
  );
}

/**
 * A paste in a language: numbered lines, highlighted off the main thread (plain lines meanwhile), or
 * coloured as terminal output for `ansi`; soft wrap, COPY, RAW, line links; only on-screen lines render.
 */
export function CodeView({
  text,
  language,
  lineLinks = false,
  firstLine = 1,
  numbersLinkToPaste = false,
  toolbar = true,
  rawHref,
  languageHref,
  lineClassName,
  label,
  className,
  onComment,
  afterLine,
}: CodeViewProps) {
  const isAnsi = language === 'ansi';
  // Line feeds normalised: the highlighted tokens of a line cut its text exactly.
  const source = useMemo(() => text.replace(/\r\n/g, '\n'), [text]);
  const lines = useMemo(() => splitLines(isAnsi ? stripAnsi(source) : source), [source, isAnsi]);
  const tokens = useHighlight(source, isAnsi ? null : language);
  const ansi = useAnsiLines(source, isAnsi);
  const ansiLines = ansi?.lines;
  const [wrap, setWrap] = useState(false);
  const [selected, setSelected] = useState<LineRange | null>(null);
  const anchor = useRef<number | null>(null);
  const [scrollTo, setScrollTo] = useState<{ line: number } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const virtual = lines.length >= VIRTUALIZE_FROM;
  const virtualizer = useVirtualizer({
    count: virtual ? lines.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_LINE_PX,
    overscan: OVERSCAN,
  });
  const lastNumber = firstLine + lines.length - 1;

  // `#L12` / `#L12-L20` on load, and when a link on the page (a reply's) changes the hash.
  useEffect(() => {
    if (!lineLinks) return;
    const apply = () => {
      const range = parseLineHash(window.location.hash, lines.length);
      if (!range) return;
      anchor.current = range.start;
      setSelected(range);
      setScrollTo({ line: range.start });
    };
    apply();
    window.addEventListener('hashchange', apply);
    return () => window.removeEventListener('hashchange', apply);
  }, [lineLinks, lines.length]);

  // Brings the first selected line to the middle of the view (rendering it first when virtualised),
  // then the view into the window.
  useEffect(() => {
    if (!scrollTo) return;
    const index = scrollTo.line - firstLine;
    if (virtual) virtualizer.scrollToIndex(index, { align: 'center' });
    const frame = requestAnimationFrame(() => {
      const row = scroller.current?.querySelector<HTMLElement>(`[data-line="${scrollTo.line}"]`);
      if (row) row.scrollIntoView({ block: 'center' });
      else scroller.current?.scrollIntoView({ block: 'center' });
    });
    return () => cancelAnimationFrame(frame);
    // The virtualizer is a new object each render; the target is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollTo, virtual, firstLine]);

  const onNumberClick = useCallback((event: MouseEvent<HTMLAnchorElement>, line: number) => {
    event.preventDefault();
    const from = event.shiftKey && anchor.current !== null ? anchor.current : line;
    if (!event.shiftKey || anchor.current === null) anchor.current = line;
    const range = { start: Math.min(from, line), end: Math.max(from, line) };
    setSelected(range);
    // Replaces the address's hash only (no history entry, no jump), keeping the router's state.
    window.history.replaceState(window.history.state, '', lineHash(range));
  }, []);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      toast({ title: 'Link copied', description: selected ? lineHash(selected).slice(1) : undefined });
    } catch {
      toast({ title: 'Error', description: 'Could not copy to the clipboard', variant: 'destructive' });
    }
  };

  const row = (index: number, measured: boolean) => {
    const number = firstLine + index;
    const isSelected = selected !== null && number >= selected.start && number <= selected.end;
    const highlighted = tokens?.line(index, lines[index]!);
    const content = ansiLines?.[index] ? (
      <AnsiSpans line={ansiLines[index]} />
    ) : highlighted ? (
      <Tokens line={highlighted} />
    ) : (
      lines[index]
    );
    const after = measured ? null : afterLine?.(number);
    const line = (
      <div
        key={index}
        className={cx('cv-line', isSelected && 'cv-line--selected', lineClassName?.(number))}
        data-line={number}
        data-index={measured ? index : undefined}
        ref={measured ? virtualizer.measureElement : undefined}
        id={lineLinks ? `L${number}` : undefined}
        aria-current={isSelected ? 'true' : undefined}
      >
        {lineLinks || numbersLinkToPaste ? (
          <a
            href={`#L${number}`}
            className="cv-num"
            aria-label={`Line ${number}`}
            onClick={lineLinks ? (event) => onNumberClick(event, number) : undefined}
          >
            {number}
          </a>
        ) : (
          <span className="cv-num" aria-hidden="true">
            {number}
          </span>
        )}
        <code className="cv-code">{content}</code>
      </div>
    );
    if (after === null || after === undefined) return line;
    return (
      <Fragment key={index}>
        {line}
        {after}
      </Fragment>
    );
  };

  const items = virtual ? virtualizer.getVirtualItems() : [];
  const total = virtual ? virtualizer.getTotalSize() : 0;
  const body = virtual ? (
    <div
      className="cv-lines"
      style={{
        paddingTop: items[0]?.start ?? 0,
        paddingBottom: Math.max(0, total - (items[items.length - 1]?.end ?? 0)),
      }}
    >
      {items.map((item) => row(item.index, true))}
    </div>
  ) : (
    <div className="cv-lines">{lines.map((_, index) => row(index, false))}</div>
  );

  const highlighted = isAnsi ? ansi?.done === true : tokens !== null;
  return (
    <section
      className={cx('cv', wrap && 'cv--wrap', virtual && 'cv--virtual', className)}
      aria-label={label ?? 'Code'}
      data-language={language ?? 'plaintext'}
      data-highlighted={highlighted ? 'true' : 'false'}
      style={{ '--cv-digits': String(lastNumber).length } as CSSProperties}
      onKeyDown={
        onComment && lineLinks
          ? (event) => {
              // c: comment on the selected lines (select them with a line number: Enter, Shift+Enter).
              const typing = (event.target as HTMLElement).closest('input, textarea, [contenteditable]');
              if (event.key !== 'c' || typing || event.ctrlKey || event.metaKey || event.altKey) return;
              if (!selected) return;
              event.preventDefault();
              onComment(selected);
            }
          : undefined
      }
    >
      {toolbar && (
        <div className="cv-toolbar">
          <span className="cv-toolbar__info">
            {languageHref ? (
              <Link to={languageHref} className="tp-badge tp-badge--accent cv-language-link">
                {languageTitle(language)}
              </Link>
            ) : (
              <span className="tp-badge tp-badge--accent">{languageTitle(language)}</span>
            )}
            <span className="forum-muted">
              {lines.length} {lines.length === 1 ? 'line' : 'lines'}
            </span>
            {selected && (
              <span className="forum-muted" data-testid="cv-selection">
                {lineHash(selected).slice(1)}
              </span>
            )}
          </span>
          <span className="cv-toolbar__actions">
            <Button variant="ghost" size="sm" aria-pressed={wrap} onClick={() => setWrap((on) => !on)}>
              <WrapText size={12} aria-hidden="true" />
              WRAP
            </Button>
            {lineLinks && selected && (
              <Button variant="ghost" size="sm" onClick={() => void copyLink()}>
                <Link2 size={12} aria-hidden="true" />
                COPY LINK
              </Button>
            )}
            {lineLinks && selected && onComment && (
              <Button
                variant="ghost"
                size="sm"
                aria-keyshortcuts="c"
                title="Comment on the selected lines (c)"
                onClick={() => onComment(selected)}
              >
                <MessageSquarePlus size={12} aria-hidden="true" />
                COMMENT
              </Button>
            )}
            <CopyButton text={() => (isAnsi ? stripAnsi(text) : text)} label="COPY" aria-label="Copy paste" />
            {rawHref && (
              <a
                href={rawHref}
                target="_blank"
                rel="noopener noreferrer"
                className="tp-button tp-button--ghost tp-button--sm"
              >
                <FileText size={12} aria-hidden="true" />
                RAW
              </a>
            )}
          </span>
        </div>
      )}
      <div
        ref={scroller}
        className="cv-scroll"
        tabIndex={0}
        role="region"
        aria-label={`${label ?? 'Code'} lines`}
      >
        {body}
      </div>
    </section>
  );
}
