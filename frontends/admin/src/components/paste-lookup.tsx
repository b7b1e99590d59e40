import { API, parsePasteRef, type PasteRef, pasteDetailSchema, type Visibility } from '@termpaste/contracts';
import { Button, Input, getJson, relativeTime } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

/** What staff are told before they read: a private paste's read is logged. */
export const PASTE_LOOKUP_NOTE = 'Reading a private paste here is recorded in the audit log under your name.';

/** Who may read a paste, as staff are told it (the author's own words say "you"). */
const VISIBILITY_TO_STAFF: Record<Visibility, string> = {
  public: 'Public: listed everywhere',
  unlisted: 'Unlisted: anyone with its link',
  private: 'Private: its author only',
};

/**
 * The PASTES tab: open a paste by its number or its key, read-only, as staff moderate it
 * (`GET /api/admin/threads/{ref}`): title, author, visibility and content. Reading another member's
 * private paste is recorded in the audit log, which the note says before and after.
 */
export function PasteLookup() {
  const [text, setText] = useState('');
  const [ref, setRef] = useState<PasteRef | null>(null);
  const [invalid, setInvalid] = useState(false);
  const paste = useQuery({
    queryKey: [API.adminThread(ref ?? ''), 'admin'],
    queryFn: () => getJson(API.adminThread(ref!), pasteDetailSchema),
    enabled: ref !== null,
    retry: false,
    gcTime: 0,
  });

  const open = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parsePasteRef(text.trim());
    setInvalid(parsed === null);
    setRef(parsed);
  };

  return (
    <div className="adm-panel">
      <form className="adm-filters" onSubmit={open} aria-label="Open a paste">
        <Input
          aria-label="Paste number or key"
          placeholder="Paste number or key..."
          maxLength={64}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit" variant="primary" size="sm" className="adm-lookup__open">
          OPEN
        </Button>
      </form>
      <p className="adm-muted">{PASTE_LOOKUP_NOTE}</p>
      {invalid ? (
        <p className="adm-error">That is neither a paste number nor a paste key.</p>
      ) : paste.isError ? (
        <p className="adm-error">No paste has that number or key.</p>
      ) : paste.data ? (
        <article className="adm-paste" aria-label={`Paste ${paste.data.title}`}>
          <h2 className="adm-paste__title">{paste.data.title}</h2>
          <dl className="adm-paste__facts">
            <dt>Author</dt>
            <dd>{paste.data.author?.username ?? 'Anonymous'}</dd>
            <dt>Visibility</dt>
            <dd>{VISIBILITY_TO_STAFF[paste.data.visibility]}</dd>
            <dt>Posted</dt>
            <dd>{relativeTime(paste.data.createdAt)}</dd>
          </dl>
          <pre className="adm-paste__content" aria-label="Paste content">
            {paste.data.content ?? ''}
          </pre>
        </article>
      ) : null}
    </div>
  );
}
