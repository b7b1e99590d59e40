import { PAGES } from '@termpaste/contracts';
import { Card, Skeleton } from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { tagsQuery } from '../api/tags';

/** /tags: every tag some listed paste carries, the most used first, each with its count. */
export function TagsScreen() {
  const tags = useQuery(tagsQuery);
  return (
    <Card titleLevel={1} title="TAGS" className="forum-wide">
      {tags.isError ? (
        <p className="forum-error">Could not load the tags. Try again in a moment.</p>
      ) : !tags.data ? (
        <Skeleton width="60%" height="1.5rem" />
      ) : tags.data.tags.length === 0 ? (
        <p className="forum-muted">No tags yet: add some to a paste.</p>
      ) : (
        <ul className="forum-tag-cloud" aria-label="Tags by use">
          {tags.data.tags.map((tag) => (
            <li key={tag.name}>
              <Link to={PAGES.tag(tag.name)} className="forum-tag">
                #{tag.name}
              </Link>
              <span className="forum-muted"> × {tag.pasteCount}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
