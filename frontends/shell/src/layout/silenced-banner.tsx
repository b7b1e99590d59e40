import { type CurrentUser, PAGES } from '@termpaste/contracts';
import { Link } from 'react-router-dom';

/**
 * For a member staff silenced: until when, why, and that support still reaches the staff (the server
 * refuses every other write with the same words). Gone once the silence has ended.
 */
export function SilencedBanner({ user }: { user: CurrentUser | null }) {
  // Checked against the clock: an ended silence is lifted even before the server's job has run.
  if (!user?.silencedUntil || Date.parse(user.silencedUntil) <= Date.now()) return null;
  const until = `${user.silencedUntil.slice(0, 16).replace('T', ' ')} UTC`;
  return (
    <div className="shell-verify shell-silenced" role="status" aria-label="Account silenced">
      <p className="shell-verify__text">
        <span className="shell-verify__tag">[!] SILENCED</span> until {until}: you can read and{' '}
        <Link to={PAGES.support}>contact support</Link>, nothing else.
        {user.silenceReason && <> Reason: {user.silenceReason}</>}
      </p>
    </div>
  );
}
