import { PAGES, TAG_MESSAGES, tagNameSchema, type TagSummary } from '@termpaste/contracts';
import {
  Button,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  TableSkeletonRows,
  useConfirm,
  useDebouncedFilter,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { GitMerge, Pencil, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { adminTagsQuery, useDeleteTag, useMergeTag, useRenameTag } from '../api/tags';

const COLUMNS = ['Tag', 'Listed pastes', ''] as const;

/** `n pastes` for a prompt. */
const pastes = (count: number) => `${count} listed ${count === 1 ? 'paste' : 'pastes'}`;

/** A typed tag name (trimmed, lower-cased), or the error text that refuses it. */
function judged(text: string): { name: string; error?: undefined } | { name?: undefined; error: string } {
  const parsed = tagNameSchema.safeParse(text);
  return parsed.success ? { name: parsed.data } : { error: TAG_MESSAGES.badName(text.trim().toLowerCase()) };
}

/** One tag: RENAME and MERGE open a name field in the row; each change asks first (a confirm prompt). */
function TagRow({ tag }: { tag: TagSummary }) {
  const confirm = useConfirm();
  const rename = useRenameTag();
  const merge = useMergeTag();
  const remove = useDeleteTag();
  const [mode, setMode] = useState<'rename' | 'merge' | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = rename.isPending || merge.isPending || remove.isPending;

  const open = (next: 'rename' | 'merge') => {
    setMode(next);
    setText(next === 'rename' ? tag.name : '');
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { name, error: refused } = judged(text);
    if (refused !== undefined) return setError(refused);
    if (mode === 'rename') {
      const confirmed = await confirm({
        title: 'RENAME TAG',
        description: `Rename #${tag.name} to #${name} on every paste that carries it (${pastes(tag.pasteCount)})?`,
        confirmLabel: 'RENAME',
      });
      if (confirmed) rename.mutate({ name: tag.name, to: name }, { onSuccess: () => setMode(null) });
    } else {
      const confirmed = await confirm({
        title: 'MERGE TAG',
        description: `Merge #${tag.name} into #${name}? Its pastes (${pastes(tag.pasteCount)}) carry #${name} instead, once, and #${tag.name} is deleted.`,
        confirmLabel: 'MERGE',
        destructive: true,
      });
      if (confirmed) merge.mutate({ name: tag.name, into: name }, { onSuccess: () => setMode(null) });
    }
  };

  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'DELETE TAG',
      description: `Delete #${tag.name} and take it off every paste that carries it (${pastes(tag.pasteCount)})?`,
      confirmLabel: 'DELETE',
      destructive: true,
    });
    if (confirmed) remove.mutate({ name: tag.name });
  };

  return (
    <TableRow data-testid={`tag-${tag.name}`}>
      <TableCell>
        {tag.pasteCount > 0 ? (
          <Link to={PAGES.tag(tag.name)} className="adm-tag">
            #{tag.name}
          </Link>
        ) : (
          <span className="adm-tag adm-muted">#{tag.name}</span>
        )}
      </TableCell>
      <TableCell className="adm-nowrap adm-tag-count">{tag.pasteCount}</TableCell>
      <TableCell className="adm-tag-actions">
        {mode ? (
          <form className="adm-tag-form" onSubmit={(event) => void submit(event)} noValidate>
            <Input
              aria-label={mode === 'rename' ? `New name for ${tag.name}` : `Tag to merge ${tag.name} into`}
              value={text}
              placeholder={mode === 'merge' ? 'the tag to keep' : undefined}
              autoFocus
              spellCheck={false}
              aria-invalid={error !== null || undefined}
              onChange={(event) => {
                setText(event.target.value);
                setError(null);
              }}
            />
            {/* Disabled while empty: Enter does nothing rather than refuse a tag named "". */}
            <Button type="submit" size="sm" variant="primary" loading={busy} disabled={text.trim() === ''}>
              {mode === 'rename' ? 'RENAME' : 'MERGE'}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setMode(null)}>
              CANCEL
            </Button>
            {error && (
              <p className="adm-error adm-tag-form__error" role="alert">
                {error}
              </p>
            )}
          </form>
        ) : (
          <div className="adm-actions">
            <Button size="sm" variant="outline" disabled={busy} onClick={() => open('rename')}>
              <Pencil size={12} aria-hidden="true" />
              RENAME
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => open('merge')}>
              <GitMerge size={12} aria-hidden="true" />
              MERGE
            </Button>
            <Button size="sm" variant="danger" disabled={busy} onClick={() => void onDelete()}>
              <Trash2 size={12} aria-hidden="true" />
              DELETE
            </Button>
          </div>
        )}
      </TableCell>
    </TableRow>
  );
}

/**
 * The TAGS tab: every tag (unused ones too, most used first), filtered by the start of its name; rename,
 * merge into another and delete, each after a confirm prompt (audit-logged by the server).
 */
export function TagsPanel() {
  const [filter, prefix, setFilter] = useDebouncedFilter();
  const tags = useQuery(adminTagsQuery(prefix.trim().toLowerCase()));
  const list = tags.data?.tags ?? null;
  return (
    <div className="adm-panel">
      <div className="adm-filters">
        <Input
          type="search"
          aria-label="Filter tags"
          placeholder="Filter by the start of a name"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      {tags.isError ? (
        <p className="adm-error">Could not load the tags. Try again in a moment.</p>
      ) : list && list.length === 0 ? (
        <p className="adm-muted">No tags.</p>
      ) : (
        <Table aria-label="Tags" className="adm-tags">
          <TableHeader>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableHead key={column}>{column}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {list === null ? (
              <TableSkeletonRows columns={COLUMNS.length} rows={5} />
            ) : (
              list.map((tag) => <TagRow key={tag.name} tag={tag} />)
            )}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
