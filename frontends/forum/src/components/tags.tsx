import { PAGES, TAG_MESSAGES, tagNameSchema, TAGS_PER_PASTE_MAX } from '@termpaste/contracts';
import { cx, Input } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { tagSuggestionsQuery } from '../api/tags';

/** A paste's tags as links to their pages (`#python`); nothing when it has none. */
export function TagLinks({ tags, className }: { tags: readonly string[]; className?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={cx('forum-tags', className)} aria-label="Tags">
      {tags.map((name) => (
        <li key={name}>
          <Link
            to={PAGES.tag(name)}
            className="forum-tag"
            // A row opens its paste on click: a tag opens the tag.
            onClick={(event) => event.stopPropagation()}
          >
            #{name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** What typing `text` would add: its name (trimmed, lower-cased), or the error text that refuses it. */
export function judgeTag(text: string, current: readonly string[]): { name?: string; error?: string } {
  const parsed = tagNameSchema.safeParse(text);
  if (!parsed.success) return { error: TAG_MESSAGES.badName(text.trim().toLowerCase()) };
  if (current.includes(parsed.data)) return {};
  if (current.length >= TAGS_PER_PASTE_MAX) return { error: TAG_MESSAGES.tooMany };
  return { name: parsed.data };
}

/**
 * The add-paste and edit forms' tags: chips with a remove button each, and an input that adds a tag on
 * Enter, comma or space, suggesting the most used tags that start with what is typed (a combobox in
 * ARIA's pattern: arrows, Enter, Escape). Backspace in the empty input takes the last chip off.
 */
export function TagInput({
  value,
  onChange,
  labelId,
}: {
  value: readonly string[];
  onChange: (tags: string[]) => void;
  labelId: string;
}) {
  const listId = useId();
  const hintId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const prefix = text.trim().toLowerCase();
  const suggested = useQuery(tagSuggestionsQuery(prefix));
  const options = (suggested.data?.tags ?? []).filter((tag) => !value.includes(tag.name));
  const full = value.length >= TAGS_PER_PASTE_MAX;
  const shown = open && prefix !== '' && options.length > 0;

  const add = (raw: string) => {
    if (raw.trim() === '') return;
    const judged = judgeTag(raw, value);
    if (judged.error) {
      setError(judged.error);
      return;
    }
    if (judged.name) onChange([...value, judged.name]);
    setText('');
    setError(null);
    setActive(-1);
  };
  const remove = (name: string) => {
    onChange(value.filter((tag) => tag !== name));
    setError(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!shown) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => Math.min(Math.max(index + step, 0), options.length - 1));
    } else if (event.key === 'Enter' || event.key === ',' || event.key === ' ') {
      if (event.key === 'Enter' && text.trim() === '') return;
      event.preventDefault();
      const chosen = shown && active >= 0 ? options[active] : undefined;
      add(chosen ? chosen.name : text);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      remove(value[value.length - 1]!);
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      setOpen(false);
    }
  };

  return (
    <div className="forum-tag-input">
      <div className="forum-tag-input__anchor">
        <div className="forum-tag-input__box">
          {value.map((name) => (
            <span key={name} className="forum-tag forum-tag--chip">
              #{name}
              <button
                type="button"
                className="forum-tag__remove"
                aria-label={`Remove tag ${name}`}
                onClick={() => remove(name)}
              >
                <X size={12} aria-hidden="true" />
              </button>
            </span>
          ))}
          <Input
            role="combobox"
            aria-labelledby={labelId}
            aria-describedby={hintId}
            aria-expanded={shown}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
            aria-invalid={error !== null || undefined}
            autoComplete="off"
            spellCheck={false}
            className="forum-tag-input__field"
            value={text}
            disabled={full}
            placeholder={full ? '' : value.length === 0 ? 'python, docker, ci' : 'another tag'}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              setActive(-1);
              setError(null);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => {
              setOpen(false);
              // What was typed counts when leaving the field, as a comma would.
              if (text.trim() !== '') add(text);
            }}
          />
        </div>
        {shown && (
          <ul id={listId} role="listbox" aria-labelledby={labelId} className="forum-language-picker__list">
            {options.map((tag, index) => (
              <li
                key={tag.name}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={cx(
                  'forum-language-picker__option',
                  index === active && 'forum-language-picker__option--active',
                )}
                // Picked before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  add(tag.name);
                }}
                onMouseMove={() => setActive(index)}
              >
                <span>#{tag.name}</span>
                <span className="forum-muted">{tag.pasteCount}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <p
        id={hintId}
        className={cx('forum-tag-input__hint', error ? 'forum-error' : 'forum-muted')}
        role={error ? 'alert' : undefined}
      >
        {error ?? `Up to ${TAGS_PER_PASTE_MAX} tags: a-z, 0-9 and -, Enter or comma after each.`}
      </p>
    </div>
  );
}
