import type { CurrentUser } from '@termpaste/contracts';
import {
  Input,
  ListFooter,
  TableSkeletonRows,
  Table,
  TableBody,
  TableHead,
  TableHeader,
  TableRow,
  useDebouncedFilter,
} from '@termpaste/ui';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { adminUsersQuery } from '../api/admin';
import { USER_COLUMNS, UserRow } from './user-row';

/** Longest filter text sent (a name or an e-mail address). */
const FILTER_MAX = 254;

/** The USERS tab: every member, newest first, filtered by name or e-mail, with the staff actions. */
export function UsersPanel({ viewer }: { viewer: CurrentUser }) {
  const [text, filter, setText] = useDebouncedFilter();
  const users = useInfiniteQuery({ ...adminUsersQuery(filter), placeholderData: keepPreviousData });
  const rows = users.data?.pages.flatMap((page) => page.users) ?? null;

  return (
    <div className="adm-panel">
      <div className="adm-filters">
        <Input
          type="search"
          aria-label="Filter users by name or e-mail"
          placeholder="Filter by name or e-mail..."
          maxLength={FILTER_MAX}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      {users.isError && !users.data ? (
        <p className="adm-error">Could not load users. Try again in a moment.</p>
      ) : rows && rows.length === 0 ? (
        <p className="adm-empty">{filter ? `No users match "${filter}".` : 'No users yet.'}</p>
      ) : (
        <Table aria-label="Users">
          <TableHeader>
            <TableRow>
              {USER_COLUMNS.map((column) => (
                <TableHead key={column}>{column}</TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows === null ? (
              <TableSkeletonRows columns={USER_COLUMNS.length} />
            ) : (
              rows.map((user) => <UserRow key={user.id} user={user} viewer={viewer} />)
            )}
          </TableBody>
        </Table>
      )}
      {rows && rows.length > 0 && (
        <ListFooter className="adm-footer" list={users}>
          Showing {rows.length} user{rows.length === 1 ? '' : 's'}
        </ListFooter>
      )}
    </div>
  );
}
