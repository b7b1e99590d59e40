import { PAGES, type PublicAuthor } from '@termpaste/contracts';
import { Avatar, UserName } from '@termpaste/ui';
import { Link } from 'react-router-dom';

/** An author's avatar and name linking to their profile; a deleted author is 'Anonymous'. */
export function AuthorLink({
  author,
  avatarSize = 22,
}: {
  author: PublicAuthor | null;
  avatarSize?: number;
}) {
  if (!author) return <span className="forum-muted">Anonymous</span>;
  return (
    <Link to={PAGES.profile(author.id)} className="forum-author" onClick={(event) => event.stopPropagation()}>
      <Avatar user={author} size={avatarSize} alt="" />
      <UserName user={author} />
    </Link>
  );
}
