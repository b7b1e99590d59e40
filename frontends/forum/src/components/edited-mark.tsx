import { relativeTime } from '@termpaste/ui';
import { Link } from 'react-router-dom';
import './revisions.css';

/** "edited 3 minutes ago", a link to the post's versions; the full date on hover. */
export function EditedMark({ editedAt, to }: { editedAt: string; to: string }) {
  return (
    <Link to={to} className="forum-muted forum-edited" title={new Date(editedAt).toLocaleString()}>
      edited <time dateTime={editedAt}>{relativeTime(editedAt)}</time>
    </Link>
  );
}
