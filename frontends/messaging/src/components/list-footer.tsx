import { Button } from '@termpaste/ui';
import type { ReactNode } from 'react';

/** The line under a paged list: what is shown, and LOAD MORE while a next page exists. */
export function ListFooter({
  children,
  list,
}: {
  children: ReactNode;
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  return (
    <div className="msg-footer">
      <span className="msg-muted">{children}</span>
      {list.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          loading={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          LOAD MORE
        </Button>
      )}
    </div>
  );
}
