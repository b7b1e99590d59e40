import { authorRank, PAGES, USER_FILTER_MAX } from '@termpaste/contracts';
import {
  Avatar,
  Badge,
  Card,
  Input,
  ListFooter,
  RankBadge,
  TableSkeletonRows,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  shortDate,
  UserName,
  useDebouncedFilter,
} from '@termpaste/ui';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { usersQuery } from '../api/pastes';

/** /users: the members directory, highest reputation first. */
export function UsersScreen() {
  const [text, filter, setText] = useDebouncedFilter();
  const users = useInfiniteQuery({ ...usersQuery(filter), placeholderData: keepPreviousData });
  const rows = users.data?.pages.flatMap((page) => page.users) ?? null;

  return (
    <Card titleLevel={1} title="USERS" className="forum-wide">
      <div className="forum-filter">
        <Input
          type="search"
          aria-label="Filter members by name"
          placeholder="Filter by name..."
          maxLength={USER_FILTER_MAX}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      {users.isError ? (
        <p className="forum-error">Could not load members. Try again in a moment.</p>
      ) : rows && rows.length === 0 ? (
        <p className="forum-muted">{filter ? `No members match "${filter}".` : 'No members yet.'}</p>
      ) : (
        <Table aria-label="Members">
          <TableHeader>
            <TableRow>
              <TableHead className="forum-num">#</TableHead>
              <TableHead>Member</TableHead>
              <TableHead>Rank</TableHead>
              <TableHead className="forum-num">Rep</TableHead>
              <TableHead className="forum-num">Pastes</TableHead>
              <TableHead className="forum-num">Replies</TableHead>
              <TableHead>Joined</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows === null ? (
              <TableSkeletonRows columns={7} />
            ) : (
              rows.map((member, index) => (
                <TableRow key={member.id}>
                  <TableCell className="forum-num forum-muted">{index + 1}</TableCell>
                  <TableCell className="forum-member">
                    <Link to={PAGES.profile(member.id)} className="forum-author">
                      <Avatar user={member} size={22} alt="" />
                      <UserName user={member} />
                    </Link>
                    {member.isOwner && <Badge variant="warning">OWNER</Badge>}
                    {!member.isOwner && member.isAdmin && <Badge variant="accent">ADMIN</Badge>}
                  </TableCell>
                  <TableCell>
                    <RankBadge rank={authorRank(member)} />
                  </TableCell>
                  <TableCell className="forum-num">{member.reputation}</TableCell>
                  <TableCell className="forum-num">{member.threadCount}</TableCell>
                  <TableCell className="forum-num">{member.replyCount}</TableCell>
                  <TableCell className="forum-muted forum-nowrap">{shortDate(member.createdAt)}</TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      )}
      {users.hasNextPage && (
        <ListFooter className="forum-footer" list={users}>
          Showing {rows?.length ?? 0} members
        </ListFooter>
      )}
    </Card>
  );
}
