import { LAYOUT, PAGES, PEOPLE_TEXTS, type PasteCard } from '@termpaste/contracts';
import {
  KEYBOARD_ITEM,
  KEYBOARD_OPEN,
  PersonGate,
  TableSkeletonRows,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  relativeTime,
  useKeyboardList,
  useWithoutBlocked,
} from '@termpaste/ui';
import { Link, useNavigate } from 'react-router-dom';
import { AuthorLink } from './author';
import { PasteFlags } from './paste-flags';
import { TagLinks } from './tags';

/** Column names: home's by default; /hardest names them title, replies, views, creator, added. */
const HOME_COLUMNS = { replies: 'Comments', author: 'Created by' };

/** The loading rows' placeholder widths, column by column. */
const SKELETON_WIDTHS = ['90%', '15%', '15%', '37.5%', '30%'];
export const HARDEST_COLUMNS = { replies: 'Replies', author: 'Creator' };

/**
 * The paste table of home and /hardest. Rows open the paste; `null` shows ten placeholder rows while loading.
 */
export function PasteTable({
  threads,
  label,
  columns = HOME_COLUMNS,
}: {
  threads: PasteCard[] | null;
  label: string;
  columns?: typeof HOME_COLUMNS;
}) {
  const navigate = useNavigate();
  // j and k move through the rows; o and Enter open the selected one.
  const rows = useKeyboardList<HTMLTableSectionElement>('paste');
  // A muted member's paste is collapsed to a row of one line, a blocked member's left out (counted).
  const shown = useWithoutBlocked(threads ?? [], (thread) => thread.author?.id);
  return (
    <Table aria-label={label} className="forum-thread-table">
      <TableHeader>
        <TableRow>
          <TableHead>Title</TableHead>
          <TableHead className="forum-num">{columns.replies}</TableHead>
          <TableHead className="forum-num">Views</TableHead>
          <TableHead>{columns.author}</TableHead>
          <TableHead>Added</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody ref={rows}>
        {threads === null ? (
          <TableSkeletonRows columns={5} rows={LAYOUT.pasteListSkeletonRows} widths={SKELETON_WIDTHS} />
        ) : (
          shown.items.map((thread) => (
            <PersonGate
              key={thread.id}
              authorId={thread.author?.id}
              wrap={(note) => (
                <TableRow className="forum-row--person">
                  <TableCell colSpan={5}>{note}</TableCell>
                </TableRow>
              )}
            >
              <TableRow
                className="forum-row"
                onClick={() => navigate(PAGES.thread(thread.id))}
                {...KEYBOARD_ITEM}
              >
                <TableCell className="forum-title-cell">
                  <PasteFlags thread={thread} />
                  <Link
                    to={PAGES.thread(thread.id)}
                    className="forum-title"
                    onClick={(e) => e.stopPropagation()}
                    {...KEYBOARD_OPEN}
                  >
                    {thread.title}
                  </Link>
                  <TagLinks tags={thread.tags} className="forum-tags--row" />
                </TableCell>
                <TableCell className="forum-num">{thread.replyCount}</TableCell>
                <TableCell className="forum-num">{thread.viewCount}</TableCell>
                <TableCell>
                  <AuthorLink author={thread.author} />
                </TableCell>
                <TableCell className="forum-muted forum-nowrap">{relativeTime(thread.createdAt)}</TableCell>
              </TableRow>
            </PersonGate>
          ))
        )}
        {threads !== null && shown.leftOut > 0 && (
          <TableRow className="forum-row--person">
            <TableCell colSpan={5} className="forum-muted forum-left-out">
              {PEOPLE_TEXTS.blockedLeftOut(shown.leftOut)}
            </TableCell>
          </TableRow>
        )}
      </TableBody>
    </Table>
  );
}
