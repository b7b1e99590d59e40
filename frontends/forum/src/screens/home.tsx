import {
  API,
  LAYOUT,
  PAGES,
  recentThreadsPageSchema,
  type RecentThreadsPage,
  type ThreadCard,
} from '@termpaste/contracts';
import {
  apiRequest,
  Avatar,
  Button,
  Card,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  Tooltip,
  relativeTime,
} from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Lock, Pin, Star } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';

export const recentThreadsKey = [API.threadsRecent] as const;

async function fetchRecentPage(cursor: string | null): Promise<RecentThreadsPage> {
  const url = cursor ? `${API.threadsRecent}?cursor=${encodeURIComponent(cursor)}` : API.threadsRecent;
  const response = await apiRequest('GET', url);
  return recentThreadsPageSchema.parse(await response.json());
}

function Author({ thread }: { thread: ThreadCard }) {
  if (!thread.author) return <span className="forum-muted">Anonymous</span>;
  return (
    <Link
      to={PAGES.profile(thread.author.id)}
      className="forum-author"
      onClick={(event) => event.stopPropagation()}
    >
      <Avatar user={thread.author} size={22} />
      <span>{thread.author.username}</span>
    </Link>
  );
}

function Flags({ thread }: { thread: ThreadCard }) {
  if (!thread.isPinned && !thread.isLocked && !thread.isFeatured) return null;
  return (
    <span className="forum-flags">
      {thread.isPinned && (
        <Tooltip content="Pinned">
          <Pin size={14} aria-label="Pinned" />
        </Tooltip>
      )}
      {thread.isLocked && (
        <Tooltip content="Locked">
          <Lock size={14} aria-label="Locked" />
        </Tooltip>
      )}
      {thread.isFeatured && (
        <Tooltip content="Featured">
          <Star size={14} aria-label="Featured" />
        </Tooltip>
      )}
    </span>
  );
}

function ThreadTable({ threads, label }: { threads: ThreadCard[] | null; label: string }) {
  const navigate = useNavigate();
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead>Title</TableHead>
          <TableHead className="forum-num">Comments</TableHead>
          <TableHead className="forum-num">Views</TableHead>
          <TableHead>Created by</TableHead>
          <TableHead>Added</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {threads === null
          ? Array.from({ length: LAYOUT.threadListSkeletonRows }, (_, i) => (
              <TableRow key={i} data-testid="skeleton-row">
                {[60, 10, 10, 25, 20].map((width, cell) => (
                  <TableCell key={cell}>
                    <Skeleton width={`${width * 1.5}%`} height="0.9rem" />
                  </TableCell>
                ))}
              </TableRow>
            ))
          : threads.map((thread) => (
              <TableRow
                key={thread.id}
                className="forum-row"
                onClick={() => navigate(PAGES.thread(thread.id))}
              >
                <TableCell>
                  <Flags thread={thread} />
                  <Link
                    to={PAGES.thread(thread.id)}
                    className="forum-title"
                    onClick={(e) => e.stopPropagation()}
                  >
                    {thread.title}
                  </Link>
                </TableCell>
                <TableCell className="forum-num">{thread.replyCount}</TableCell>
                <TableCell className="forum-num">{thread.viewCount}</TableCell>
                <TableCell>
                  <Author thread={thread} />
                </TableCell>
                <TableCell className="forum-muted">{relativeTime(thread.createdAt)}</TableCell>
              </TableRow>
            ))}
      </TableBody>
    </Table>
  );
}

/** Home (SPEC §2): pinned pastes apart, the rest newest first, 50 at a time. */
export function HomeScreen() {
  const recent = useInfiniteQuery({
    queryKey: recentThreadsKey,
    queryFn: ({ pageParam }) => fetchRecentPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

  const addPaste = (
    <Link to={PAGES.newThread} className="tp-button tp-button--primary tp-button--sm">
      ADD PASTE
    </Link>
  );

  if (recent.isError) {
    return (
      <Card title="RECENT PASTES" actions={addPaste}>
        <p className="forum-error">Could not load pastes. Try again in a moment.</p>
      </Card>
    );
  }

  const pages = recent.data?.pages;
  const pinned = pages?.[0]?.pinned ?? [];
  const threads = pages?.flatMap((page) => page.threads) ?? null;
  const total = pages?.at(-1)?.total ?? 0;

  if (threads && threads.length === 0 && pinned.length === 0) {
    return (
      <Card title="RECENT PASTES" actions={addPaste}>
        <div className="forum-empty">
          <p>No pastes yet. Be the first to add one!</p>
          <Link to={PAGES.newThread} className="tp-button tp-button--primary tp-button--md">
            ADD FIRST PASTE
          </Link>
        </div>
      </Card>
    );
  }

  return (
    <div className="forum-stack">
      {pinned.length > 0 && (
        <Card title="Pinned Pastes">
          <ThreadTable threads={pinned} label="Pinned Pastes" />
        </Card>
      )}
      <Card title="RECENT PASTES" actions={addPaste}>
        <ThreadTable threads={threads} label="Recent pastes" />
        {threads && (
          <div className="forum-footer">
            <span className="forum-muted">
              Showing {pinned.length + threads.length} of {total} total pastes
            </span>
            {recent.hasNextPage && (
              <Button
                variant="outline"
                size="sm"
                loading={recent.isFetchingNextPage}
                onClick={() => void recent.fetchNextPage()}
              >
                LOAD MORE
              </Button>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
