import {
  ListFooter,
  type ListFooterProps,
  Table,
  TableBody,
  TableHead,
  TableHeader,
  TableRow,
  TableSkeletonRows,
} from '@termpaste/ui';
import type { ReactNode } from 'react';

export interface PagedTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: readonly string[];
  /** The rows read so far; null while the first page loads. */
  items: T[] | null;
  /** The paged query: its error state and LOAD MORE. */
  list: ListFooterProps['list'] & { isError: boolean; data: unknown };
  row: (item: T) => ReactNode;
  loadFailed: ReactNode;
  empty: ReactNode;
  /** The footer's words for `count` rows shown. */
  shown: (count: number) => ReactNode;
}

/** An admin tab's paged table: its load error, its empty line, skeleton rows, then the rows and LOAD MORE. */
export function PagedTable<T>({
  label,
  columns,
  items,
  list,
  row,
  loadFailed,
  empty,
  shown,
}: PagedTableProps<T>) {
  return (
    <>
      {list.isError && !list.data ? (
        <p className="adm-error">{loadFailed}</p>
      ) : items && items.length === 0 ? (
        <p className="adm-empty">{empty}</p>
      ) : (
        <Table aria-label={label}>
          <TableHeader>
            <TableRow>
              {columns.map((column) => (
                <TableHead key={column}>{column}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {items === null ? <TableSkeletonRows columns={columns.length} /> : items.map(row)}
          </TableBody>
        </Table>
      )}
      {items && items.length > 0 && (
        <ListFooter className="adm-footer" list={list}>
          {shown(items.length)}
        </ListFooter>
      )}
    </>
  );
}
