import { authorRank, type PublicAuthor } from '@termpaste/contracts';
import { RankBadge, relativeTime } from '@termpaste/ui';
import { AuthorLink } from './author';

/** Who wrote a paste or a reply and when: avatar and name, rank badge, and the age (the full date on hover). */
export function AuthorLine({ author, createdAt }: { author: PublicAuthor | null; createdAt: string }) {
  return (
    <span className="forum-byline">
      <AuthorLink author={author} avatarSize={24} />
      {author && <RankBadge rank={authorRank(author)} />}
      <time dateTime={createdAt} title={new Date(createdAt).toLocaleString()} className="forum-muted">
        {relativeTime(createdAt)}
      </time>
    </span>
  );
}
