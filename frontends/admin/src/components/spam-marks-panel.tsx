import { MODERATION_TEXTS, type SpamMark } from '@termpaste/contracts/moderation';
import { Badge, Button, TableCell, TableRow, relativeTime, useConfirm } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { PagedTable } from './paged-table';
import { Eraser } from 'lucide-react';
import { spamMarksQuery, useForgetSpamMark } from '../api/admin';

const COLUMNS = ['Remembered', 'Kind', 'Mark', 'Deleted spammer', ''] as const;

/** An address mark is its hash: the screen shows a prefix, enough to tell two apart. */
const markText = (mark: SpamMark) => (mark.kind === 'address' ? `sha256:${mark.value}…` : mark.value);

function SpamMarkRow({ mark }: { mark: SpamMark }) {
  const confirm = useConfirm();
  const forget = useForgetSpamMark();

  const onForget = async () => {
    const confirmed = await confirm({
      title: MODERATION_TEXTS.forgetTitle,
      description: `${mark.kind} ${markText(mark)}: ${MODERATION_TEXTS.forgetDetail}`,
      confirmLabel: MODERATION_TEXTS.forget,
      destructive: true,
    });
    if (confirmed) forget.mutate(mark);
  };

  return (
    <TableRow data-testid={`spam-mark-${mark.id}`}>
      <TableCell className="adm-nowrap adm-muted">
        <time dateTime={mark.createdAt} title={new Date(mark.createdAt).toLocaleString()}>
          {relativeTime(mark.createdAt)}
        </time>
      </TableCell>
      <TableCell>
        <Badge variant={mark.kind === 'domain' ? 'warning' : 'muted'}>{mark.kind}</Badge>
      </TableCell>
      <TableCell>
        <code title={mark.kind === 'address' ? 'The start of the address’s SHA-256' : undefined}>
          {markText(mark)}
        </code>
      </TableCell>
      <TableCell>{mark.spammer ?? <span className="adm-muted">unknown</span>}</TableCell>
      <TableCell>
        <Button
          variant="outline"
          size="sm"
          disabled={forget.isPending || forget.isSuccess}
          onClick={() => void onForget()}
          aria-label={`${MODERATION_TEXTS.forget} ${mark.kind} ${markText(mark)}`}
        >
          <Eraser size={12} aria-hidden="true" />
          {MODERATION_TEXTS.forget}
        </Button>
      </TableCell>
    </TableRow>
  );
}

/**
 * The SPAM MARKS tab: the address hashes and domains DELETE SPAMMER remembered for the spam signals,
 * newest first, each with FORGET (after a confirm prompt; audit-logged by the server), for a mark that
 * holds honest members.
 */
export function SpamMarksPanel() {
  const marks = useInfiniteQuery(spamMarksQuery());
  const list = marks.data?.pages.flatMap((page) => page.marks) ?? null;

  return (
    <div className="adm-panel">
      <p className="adm-muted adm-intro">{MODERATION_TEXTS.spamMarksIntro}</p>
      <PagedTable
        label="Spam marks"
        columns={COLUMNS}
        items={list}
        list={marks}
        row={(mark) => <SpamMarkRow key={mark.id} mark={mark} />}
        loadFailed={MODERATION_TEXTS.spamMarksLoadFailed}
        empty={MODERATION_TEXTS.spamMarksEmpty}
        shown={(count) => `Showing ${count} spam mark${count === 1 ? '' : 's'}`}
      />
    </div>
  );
}
