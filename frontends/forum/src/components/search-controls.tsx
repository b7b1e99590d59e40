import {
  type ParsedSearch,
  parseSearchQuery,
  printSearchQuery,
  SEARCH_OPERATORS,
  SEARCH_SORTS,
  type SearchSort,
} from '@termpaste/contracts';
import { Button, Input, Label } from '@termpaste/ui';
import { type ComponentProps, useEffect, useId, useRef, useState } from 'react';

/** The `?` beside the search box: every operator with an example, in a popover. */
export function SearchHelp() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent | MouseEvent) => {
      if (
        event instanceof KeyboardEvent ? event.key === 'Escape' : !box.current?.contains(event.target as Node)
      )
        setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('mousedown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('mousedown', close);
    };
  }, [open]);
  return (
    <div className="forum-search-help" ref={box}>
      <Button
        variant="outline"
        aria-label="Search operators"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        ?
      </Button>
      {open && (
        <div id={panelId} role="dialog" aria-label="Search operators" className="forum-search-help__panel">
          <p className="forum-search-help__title">$ man search</p>
          <dl>
            {SEARCH_OPERATORS.map((operator) => (
              <div key={operator.syntax} className="forum-search-help__row">
                <dt>
                  <code>{operator.example}</code>
                </dt>
                <dd>{operator.meaning}</dd>
              </div>
            ))}
          </dl>
          <p className="forum-muted">
            Combine them: tag:rust lang:python &quot;borrow checker&quot; sort:new
          </p>
        </div>
      )}
    </div>
  );
}

const SORT_LABELS: Record<SearchSort, string> = { relevance: 'Relevance', new: 'Newest', top: 'Top votes' };

/**
 * A text filter: typed freely, written into the query when it is left or on Enter (a half-typed name
 * would otherwise be refused at each keystroke), shown anew when the query changes.
 */
function DraftInput({
  value,
  commit,
  ...props
}: { value: string; commit: (value: string) => void } & Omit<ComponentProps<'input'>, 'value' | 'onChange'>) {
  const [draft, setDraft] = useState(value);
  const [shownFor, setShownFor] = useState(value);
  if (shownFor !== value) {
    setShownFor(value);
    setDraft(value);
  }
  return (
    <Input
      {...props}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => draft !== value && commit(draft)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          if (draft !== value) commit(draft);
        }
      }}
    />
  );
}

/**
 * The search's filters as controls for the query in `text`: each shows what the text says, and a change
 * writes the text anew (printSearchQuery). A change the parser refuses is not written, and its words
 * show; while the box's text does not parse, the controls wait.
 */
export function SearchFilters({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const id = useId();
  const [refused, setRefused] = useState<string | null>(null);
  const parsed = parseSearchQuery(text);
  const query: ParsedSearch | null = parsed.ok ? parsed.query : null;
  const set = (change: Partial<ParsedSearch>) => {
    if (!query) return;
    const next = printSearchQuery({ ...query, ...change });
    const checked = parseSearchQuery(next);
    setRefused(checked.ok ? null : checked.error);
    if (checked.ok) onChange(next);
  };
  const field = (name: string) => `${id}-${name}`;
  const problem = parsed.ok ? refused : parsed.error;
  return (
    <fieldset className="forum-search-filters" aria-label="Search filters" disabled={query === null}>
      <div className="tp-field">
        <Label htmlFor={field('user')}>user:</Label>
        <DraftInput
          id={field('user')}
          placeholder="name"
          value={query?.user ?? ''}
          commit={(value) => set({ user: value.trim() || undefined })}
        />
      </div>
      <div className="tp-field">
        <Label htmlFor={field('tag')}>tag:</Label>
        <DraftInput
          id={field('tag')}
          placeholder="rust cli"
          value={query?.tags.join(' ') ?? ''}
          commit={(value) =>
            set({
              tags: value
                .toLowerCase()
                .split(/[\s,]+/)
                .filter(Boolean),
            })
          }
        />
      </div>
      <div className="tp-field">
        <Label htmlFor={field('lang')}>lang:</Label>
        <DraftInput
          id={field('lang')}
          placeholder="python"
          value={query?.lang ?? ''}
          commit={(value) => set({ lang: value.trim().toLowerCase() || undefined })}
        />
      </div>
      <div className="tp-field">
        <Label htmlFor={field('after')}>after:</Label>
        <Input
          id={field('after')}
          type="date"
          value={query?.after ?? ''}
          onChange={(event) => set({ after: event.target.value || undefined })}
        />
      </div>
      <div className="tp-field">
        <Label htmlFor={field('before')}>before:</Label>
        <Input
          id={field('before')}
          type="date"
          value={query?.before ?? ''}
          onChange={(event) => set({ before: event.target.value || undefined })}
        />
      </div>
      <div className="tp-field">
        <Label htmlFor={field('sort')}>sort:</Label>
        <select
          id={field('sort')}
          className="tp-input forum-select"
          value={query?.sort ?? ''}
          onChange={(event) => set({ sort: (event.target.value || undefined) as SearchSort | undefined })}
        >
          <option value="">Default</option>
          {SEARCH_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
      <div className="forum-search-filters__checks">
        <label className="forum-check">
          <input
            type="checkbox"
            checked={query?.featured ?? false}
            onChange={(event) => set({ featured: event.target.checked })}
          />
          <span>is:featured</span>
        </label>
        <label className="forum-check">
          <input
            type="checkbox"
            checked={query?.inTitle ?? false}
            onChange={(event) => set({ inTitle: event.target.checked })}
          />
          <span>in:title</span>
        </label>
      </div>
      {problem && (
        <p className="forum-error forum-search-filters__problem" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
