import type { ReactNode } from 'react';
import { cx } from '../lib/cx.js';
import { Button } from './button.js';

export interface ListFooterProps {
  /** What the list shows, e.g. 'Showing 50 members'. */
  children: ReactNode;
  /** The list's infinite query (or anything shaped like it). */
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  /** The app's own spacing, beside `tp-list-footer`. */
  className?: string;
}

/** The line under a paged list: what is shown, and LOAD MORE while a next page exists. */
export function ListFooter({ children, list, className }: ListFooterProps) {
  return (
    <div className={cx('tp-list-footer', className)}>
      <span className="tp-list-footer__summary">{children}</span>
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
