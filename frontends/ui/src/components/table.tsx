import type { ComponentProps } from 'react';
import { cx } from '../lib/cx.js';

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
