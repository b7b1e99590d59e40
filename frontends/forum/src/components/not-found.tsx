import { PAGES } from '@termpaste/contracts';
import { Card } from '@termpaste/ui';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router-dom';

/** 'Thread not found [404]' or 'User not found [404]', with the way back home. */
export function NotFoundCard({ text }: { text: string }) {
  return (
    <Card titleLevel={1} title="ERROR">
      <p className="forum-error forum-not-found">{text}</p>
      <Link to={PAGES.home} className="forum-not-found__home">
        <ArrowLeft size={14} aria-hidden /> Back to home
      </Link>
    </Card>
  );
}
