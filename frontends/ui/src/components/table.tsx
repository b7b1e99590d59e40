import type { ComponentProps } from 'react';
import { cx } from '../lib/cx.js';
import { Skeleton } from './skeleton.js';

/** A table in a horizontally scrolling frame, so wide rows never break a narrow layout. */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="tp-table-frame">
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
