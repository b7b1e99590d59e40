import type { Revision } from '@termpaste/contracts/revisions';
import { Button } from '@termpaste/ui';
import { useMemo } from 'react';
import { lineDiff, sideBySide, type SideCell } from '../lib/line-diff';
import { CodeView, isCodeLanguage, languageTitle } from './code-view';
import './revisions.css';

export type DiffLayout = 'unified' | 'split';

/** Diff lines through the code view: highlighted as the version's language, Markdown as plain lines. */
const viewLanguage = (language: string | null) => (isCodeLanguage(language) ? language : null);

/** The code view's text of some lines (a final line feed, so that a last empty line stays a line). */
const textOf = (lines: readonly string[]) => `${lines.join('\n')}\n`;

function cellText(cell: SideCell): string {
  return cell.kind === 'pad' ? '' : cell.text;
}

/**
 * The diff of two versions of a post, unified or side by side, each column a code view in its version's
 * language. Computed in the browser by jsdiff.
 */
export function RevisionDiff({
  from,
  to,
  layout,
  onLayout,
}: {
  from: Revision;
  to: Revision;
  layout: DiffLayout;
  onLayout: (layout: DiffLayout) => void;
}) {
  const diff = useMemo(() => lineDiff(from.content, to.content), [from.content, to.content]);
  const split = useMemo(() => (layout === 'split' ? sideBySide(diff.lines) : null), [diff, layout]);
  const unchanged = diff.added === 0 && diff.removed === 0;

  return (
    <section className="rev-diff" aria-label={`Changes from version ${from.n} to version ${to.n}`}>
      <div className="rev-diff__head">
        <span className="rev-diff__summary">
          <span className="tp-badge">v{from.n}</span> →{' '}
          <span className="tp-badge tp-badge--accent">v{to.n}</span>
          <span className="rev-added" aria-label={`${diff.added} lines added`}>
            +{diff.added}
          </span>
          <span className="rev-removed" aria-label={`${diff.removed} lines removed`}>
            −{diff.removed}
          </span>
        </span>
        <span className="rev-diff__layout" role="group" aria-label="Diff layout">
          <Button
            variant="ghost"
            size="sm"
            aria-pressed={layout === 'unified'}
            onClick={() => onLayout('unified')}
          >
            UNIFIED
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-pressed={layout === 'split'}
            onClick={() => onLayout('split')}
          >
            SIDE BY SIDE
          </Button>
        </span>
      </div>
      {from.title !== to.title && (
        <p className="rev-diff__field">
          Title: <del className="rev-removed">{from.title}</del> → <ins className="rev-added">{to.title}</ins>
        </p>
      )}
      {from.language !== to.language && (
        <p className="rev-diff__field">
          Language: <del className="rev-removed">{languageTitle(from.language)}</del> →{' '}
          <ins className="rev-added">{languageTitle(to.language)}</ins>
        </p>
      )}
      {!diff.exact && (
        <p className="forum-muted">
          These versions differ too much to compare line by line: all of both is shown.
        </p>
      )}
      {unchanged ? (
        <p className="forum-muted">The content is the same in both versions.</p>
      ) : split ? (
        <div className="rev-split">
          <div className="rev-split__side">
            <p className="rev-split__label forum-muted">v{from.n}</p>
            <CodeView
              text={textOf(split.left.map(cellText))}
              language={viewLanguage(from.language)}
              toolbar={false}
              label={`Version ${from.n}`}
              className="rev-code"
              lineClassName={(number) => `rev-line--${split.left[number - 1]?.kind ?? 'same'}`}
            />
          </div>
          <div className="rev-split__side">
            <p className="rev-split__label forum-muted">v{to.n}</p>
            <CodeView
              text={textOf(split.right.map(cellText))}
              language={viewLanguage(to.language)}
              toolbar={false}
              label={`Version ${to.n}`}
              className="rev-code"
              lineClassName={(number) => `rev-line--${split.right[number - 1]?.kind ?? 'same'}`}
            />
          </div>
        </div>
      ) : (
        <CodeView
          text={textOf(diff.lines.map((line) => line.text))}
          language={viewLanguage(to.language)}
          toolbar={false}
          label="Unified diff"
          className="rev-code"
          lineClassName={(number) => `rev-line--${diff.lines[number - 1]?.kind ?? 'same'}`}
        />
      )}
    </section>
  );
}
