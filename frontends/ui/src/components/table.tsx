import { useEffect, useRef, useState, type ComponentProps, type RefObject } from 'react';
import { cx } from '../lib/cx.js';
import { Skeleton } from './skeleton.js';

/** Whether the element's content is wider than it (it scrolls sideways), kept up to date. */
function useScrollsSideways(frame: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [frame]);
  return scrolls;
}

/**
 * A table in a horizontally scrolling frame, so wide rows never break a narrow layout. When it does
 * scroll (a phone), the frame takes the focus, so arrow keys can scroll a table with nothing focusable
 * in it (WCAG 2.1.1; axe: scrollable-region-focusable), and says what it is.
 */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  const frame = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(frame);
  const label = props['aria-label'];
  const focusable = scrolls
    ? {
        tabIndex: 0,
        role: 'region',
        'aria-label': label ? `${label} (scrolls sideways)` : 'Table (scrolls sideways)',
      }
    : {};
  return (
    <div ref={frame} className="tp-table-frame" {...focusable}>
      <table {...props} className={cx('tp-table', className)} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead {...props} className={cx('tp-table__header', className)} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody {...props} className={cx('tp-table__body', className)} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr {...props} className={cx('tp-table__row', className)} />;
}

export function TableHead({ className, scope = 'col', ...props }: ComponentProps<'th'>) {
  return <th {...props} scope={scope} className={cx('tp-table__head', className)} />;
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td {...props} className={cx('tp-table__cell', className)} />;
}

export interface TableSkeletonRowsProps {
  /** How many cells a row has (the table's columns). */
  columns: number;
  /** How many placeholder rows (10 unless told). */
  rows?: number;
  /** Each cell's placeholder width (a CSS length), in column order; unset: the whole cell. */
  widths?: readonly string[];
}

/** A table body's placeholder rows while its first page loads (`data-testid="skeleton-row"`). */
export function TableSkeletonRows({ columns, rows = 10, widths }: TableSkeletonRowsProps) {
  return Array.from({ length: rows }, (_, row) => (
    <TableRow key={row} data-testid="skeleton-row">
      {Array.from({ length: columns }, (_, cell) => (
        <TableCell key={cell}>
          <Skeleton width={widths?.[cell]} height="0.9rem" />
        </TableCell>
      ))}
    </TableRow>
  ));
}
