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

type QueryChange = Partial<ParsedSearch>;

/**
 * One control of the search filters: the operator it writes (also its label), the kind of input, and how
 * it reads its value from the query and writes a new one back.
 */
type FilterField = { operator: string } & (
  | {
      kind: 'text';
      placeholder: string;
      read: (query: ParsedSearch) => string | undefined;
      write: (value: string) => QueryChange;
    }
  | { kind: 'date'; read: (query: ParsedSearch) => string | undefined; write: (value: string) => QueryChange }
  | {
      kind: 'select';
      options: ReadonlyArray<{ value: string; label: string }>;
      read: (query: ParsedSearch) => string | undefined;
      write: (value: string) => QueryChange;
    }
  | { kind: 'check'; read: (query: ParsedSearch) => boolean; write: (on: boolean) => QueryChange }
);

const FILTER_FIELDS: readonly FilterField[] = [
  {
    operator: 'user:',
    kind: 'text',
    placeholder: 'name',
    read: (query) => query.user,
    write: (value) => ({ user: value.trim() || undefined }),
  },
  {
    operator: 'tag:',
    kind: 'text',
    placeholder: 'rust cli',
    read: (query) => query.tags.join(' '),
    write: (value) => ({
      tags: value
        .toLowerCase()
        .split(/[\s,]+/)
        .filter(Boolean),
    }),
  },
  {
    operator: 'lang:',
    kind: 'text',
    placeholder: 'python',
    read: (query) => query.lang,
    write: (value) => ({ lang: value.trim().toLowerCase() || undefined }),
  },
  {
    operator: 'after:',
    kind: 'date',
    read: (query) => query.after,
    write: (value) => ({ after: value || undefined }),
  },
  {
    operator: 'before:',
    kind: 'date',
    read: (query) => query.before,
    write: (value) => ({ before: value || undefined }),
  },
  {
    operator: 'sort:',
    kind: 'select',
    options: [
      { value: '', label: 'Default' },
      ...SEARCH_SORTS.map((sort) => ({ value: sort, label: SORT_LABELS[sort] })),
    ],
    read: (query) => query.sort,
    write: (value) => ({ sort: (value || undefined) as SearchSort | undefined }),
  },
  {
    operator: 'is:featured',
    kind: 'check',
    read: (query) => query.featured,
    write: (on) => ({ featured: on }),
  },
  { operator: 'in:title', kind: 'check', read: (query) => query.inTitle, write: (on) => ({ inTitle: on }) },
];

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
  // The flags' check boxes sit together after the fields.
  const controls = (flags: boolean) =>
    FILTER_FIELDS.filter((filter) => (filter.kind === 'check') === flags).map((filter) => (
      <FilterControl
        key={filter.operator}
        field={filter}
        query={query}
        id={`${id}-${filter.operator.replace(':', '')}`}
        set={set}
      />
    ));
  const problem = parsed.ok ? refused : parsed.error;
  return (
    <fieldset className="forum-search-filters" aria-label="Search filters" disabled={query === null}>
      {controls(false)}
      <div className="forum-search-filters__checks">{controls(true)}</div>
      {problem && (
        <p className="forum-error forum-search-filters__problem" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

/** The input of one filter, labelled by its operator; a check box for a flag, a field for anything else. */
function FilterControl({
  field,
  query,
  id,
  set,
}: {
  field: FilterField;
  query: ParsedSearch | null;
  id: string;
  set: (change: QueryChange) => void;
}) {
  if (field.kind === 'check') {
    return (
      <label className="forum-check">
        <input
          type="checkbox"
          checked={(query && field.read(query)) ?? false}
          onChange={(event) => set(field.write(event.target.checked))}
        />
        <span>{field.operator}</span>
      </label>
    );
  }
  const value = (query && field.read(query)) ?? '';
  return (
    <div className="tp-field">
      <Label htmlFor={id}>{field.operator}</Label>
      {field.kind === 'text' ? (
        <DraftInput
          id={id}
          placeholder={field.placeholder}
          value={value}
          commit={(next) => set(field.write(next))}
        />
      ) : field.kind === 'date' ? (
        <Input id={id} type="date" value={value} onChange={(event) => set(field.write(event.target.value))} />
      ) : (
        <select
          id={id}
          className="tp-input forum-select"
          value={value}
          onChange={(event) => set(field.write(event.target.value))}
        >
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
