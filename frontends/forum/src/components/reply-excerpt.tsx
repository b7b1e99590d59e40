import { sgrOnly } from '@termpaste/ui';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { ANSI_LANGUAGE, CodeView, isCodeLanguage, lineHash, referencedLines } from './code-view';
import { sgrStateAfter } from './code-view/use-ansi-lines';

/** The paste whose replies are shown: what a reply's `#L12-L20` points into. */
interface PasteLines {
  id: number | string;
  content: string;
  language: string;
  /** The paste's author (who may apply a line comment's suggestion). */
  authorId?: number | null;
}

const PasteLinesContext = createContext<PasteLines | null>(null);

/** Makes a paste in a language the one its replies' line references point into (Markdown has no lines). */
export function PasteLinesProvider({
  id,
  content,
  language,
  authorId,
  children,
}: {
  id: number | string;
  content: string;
  language: string | null | undefined;
  authorId?: number | null;
  children: ReactNode;
}) {
  const value = useMemo(
    () => (isCodeLanguage(language) ? { id, content, language, authorId } : null),
    [id, content, language, authorId],
  );
  return <PasteLinesContext.Provider value={value}>{children}</PasteLinesContext.Provider>;
}

/** The paste the replies are under, when it is shown in the code view. */
export const usePasteLines = () => useContext(PasteLinesContext);

/** An excerpt shows this many lines at most (a reference to more shows its first ones). */
export const EXCERPT_MAX_LINES = 40;

/**
 * Under a reply whose text points at lines of its paste (`#L12-L20`, or this paste's address with that
 * hash): those lines, numbered as in the paste, each number a link to the line in the paste above.
 */
export function ReplyExcerpt({ text }: { text: string }) {
  const paste = useContext(PasteLinesContext);
  const excerpt = useMemo(() => {
    if (!paste) return null;
    const range = referencedLines(text, paste.id);
    if (!range) return null;
    const lines = paste.content.replace(/\r\n/g, '\n').split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    if (range.start > lines.length) return null;
    const end = Math.min(range.end, lines.length, range.start + EXCERPT_MAX_LINES - 1);
    const shown = lines.slice(range.start - 1, end).join('\n');
    // Terminal output: the lines start in the colours the lines above left them in.
    const style =
      paste.language === ANSI_LANGUAGE.name
        ? sgrStateAfter('', sgrOnly(lines.slice(0, range.start - 1).join('\n')))
        : '';
    return { start: range.start, end, text: style + shown };
  }, [paste, text]);
  if (!paste || !excerpt) return null;
  const name =
    excerpt.start === excerpt.end ? `Line ${excerpt.start}` : `Lines ${excerpt.start}-${excerpt.end}`;
  return (
    <figure className="forum-reply__excerpt">
      <figcaption className="forum-muted">
        <a href={lineHash(excerpt)}>{name}</a> of the paste
      </figcaption>
      <CodeView
        text={excerpt.text}
        language={paste.language}
        firstLine={excerpt.start}
        numbersLinkToPaste
        toolbar={false}
        label={`${name} of the paste`}
        className="cv--excerpt"
      />
    </figure>
  );
}
