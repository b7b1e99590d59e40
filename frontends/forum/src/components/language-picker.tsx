import { cx, Input } from '@termpaste/ui';
import { ChevronDown } from 'lucide-react';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { languageTitle, MARKDOWN_LANGUAGE, searchLanguages } from './code-view';

/** How many matches the list shows at once (typing narrows it). */
const SHOWN = 60;

/**
 * The paste's language on /thread/new: a searchable list of highlight.js's languages, Markdown first and
 * terminal output (`ansi`) second. A combobox in ARIA's pattern: type, arrows, Enter, Escape.
 */
export function LanguagePicker({
  value,
  onChange,
  labelId,
}: {
  /** The picked language's name, or null for the default (Markdown, not picked: the server may guess). */
  value: string | null;
  onChange: (language: string) => void;
  labelId: string;
}) {
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const matches = useMemo(() => searchLanguages(query ?? '').slice(0, SHOWN), [query]);
  const current = value ?? MARKDOWN_LANGUAGE;

  const pick = (name: string) => {
    onChange(name);
    setQuery(null);
    setOpen(false);
  };
  const show = () => {
    setOpen(true);
    setActive(
      Math.max(
        0,
        matches.findIndex((language) => language.name === current),
      ),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return show();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => Math.min(Math.max(index + step, 0), Math.max(matches.length - 1, 0)));
    } else if (event.key === 'Enter') {
      if (!open) return;
      event.preventDefault();
      const chosen = matches[active];
      if (chosen) pick(chosen.name);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setQuery(null);
    }
  };

  return (
    <div className="forum-language-picker">
      <div className="forum-language-picker__field">
        <Input
          ref={input}
          role="combobox"
          aria-labelledby={labelId}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && matches[active] ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query ?? languageTitle(current)}
          onFocus={(event) => event.currentTarget.select()}
          onClick={() => !open && show()}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setOpen(false);
            setQuery(null);
          }}
        />
        <ChevronDown size={14} aria-hidden="true" className="forum-language-picker__chevron" />
      </div>
      {open && (
        <ul id={listId} role="listbox" aria-labelledby={labelId} className="forum-language-picker__list">
          {matches.length === 0 ? (
            <li className="forum-muted forum-language-picker__empty">No language matches.</li>
          ) : (
            matches.map((language, index) => (
              <li
                key={language.name}
                id={optionId(index)}
                role="option"
                aria-selected={language.name === current}
                className={cx(
                  'forum-language-picker__option',
                  index === active && 'forum-language-picker__option--active',
                )}
                // Picked before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(language.name);
                }}
                onMouseMove={() => setActive(index)}
              >
                <span>{language.title}</span>
                <span className="forum-muted">{language.name}</span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
