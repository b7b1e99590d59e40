import { PAGES, type PublicAuthor } from '@termpaste/contracts';
import {
  FLAG_REASON_LABELS,
  SPAM_SIGNAL_LABELS,
  type AuthorHistory,
  type FlagTarget,
  type ReviewDecision,
  type ReviewItem,
} from '@termpaste/contracts/moderation';
import { Badge, Button, Markdown, UserName, cx, relativeTime, shortDate } from '@termpaste/ui';
import { Check, Eye, EyeOff, Trash2, X } from 'lucide-react';
import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import { DECISION_LABELS } from '../api/review';

/** How each kind of item is named in the queue. */
export const TARGET_LABELS: Record<FlagTarget, string> = {
  paste: 'Paste',
  reply: 'Reply',
  chat: 'Chat message',
  message: 'Private message',
  member: 'Member',
};

/** A paste in a language, as the forum shows it: a fenced block longer than any backtick run inside. */
export function codeFence(content: string, language: string): string {
  const longest = Math.max(2, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${content}\n${fence}`;
}

const isCode = (language: string | null): language is string =>
  language !== null && language !== '' && language !== 'markdown';

/** The item as members see it: a paste's title and content, a post's text, a member's bio. */
function TargetView({ item }: { item: ReviewItem }) {
  const { target } = item;
  const where =
    target.threadRef !== null && !target.gone ? (
      <Link to={PAGES.thread(target.threadRef)}>{target.title ?? 'its paste'}</Link>
    ) : (
      target.title
    );
  return (
    <div className="adm-review__target">
      <p className="adm-review__where">
        <Badge variant={item.kind === 'held' ? 'warning' : 'accent'}>
          {item.kind === 'held' ? 'HELD' : 'FLAGGED'}
        </Badge>
        <Badge variant="muted">{TARGET_LABELS[item.targetType]}</Badge>
        {item.hidden && (
          <Badge variant="danger">
            <EyeOff size={11} aria-hidden="true" /> HIDDEN
          </Badge>
        )}
        {target.gone && <Badge variant="danger">DELETED SINCE</Badge>}
        {item.targetType === 'paste' ? (
          <span className="adm-review__title">{where}</span>
        ) : item.targetType === 'reply' && where ? (
          <span className="adm-muted">on {where}</span>
        ) : null}
      </p>
      {item.targetType === 'member' ? (
        <div className="adm-review__content">
          <p className="adm-review__member">
            {item.author ? <UserLink user={item.author} /> : <span className="adm-muted">[deleted]</span>}
          </p>
          {target.content.trim() ? (
            <Markdown>{target.content}</Markdown>
          ) : (
            <p className="adm-muted">No bio.</p>
          )}
        </div>
      ) : item.targetType === 'chat' ? (
        <p className="adm-review__content adm-review__chat">{target.content}</p>
      ) : item.targetType === 'paste' && isCode(target.language) ? (
        <Markdown className="adm-review__content">{codeFence(target.content, target.language)}</Markdown>
      ) : (
        <Markdown className="adm-review__content">{target.content}</Markdown>
      )}
    </div>
  );
}

function UserLink({ user }: { user: PublicAuthor }) {
  return (
    <Link to={PAGES.profile(user.id)} className="adm-user-link">
      <UserName user={user} />
    </Link>
  );
}

const until = (date: string | null) => (date ? `until ${new Date(date).toLocaleString()}` : 'for ever');

/** The author and their record: posts, flags agreed, suspensions, a ban or silence now. */
function AuthorView({ author, history }: { author: PublicAuthor | null; history: AuthorHistory | null }) {
  return (
    <section className="adm-review__box" aria-label="Author">
      <h4 className="adm-review__heading">AUTHOR</h4>
      {author ? <UserLink user={author} /> : <span className="adm-muted">Deleted account</span>}
      {history && (
        <dl className="adm-review__facts">
          <dt>Joined</dt>
          <dd>{shortDate(history.joinedAt)}</dd>
          <dt>Posts</dt>
          <dd>
            {history.pastes} paste{history.pastes === 1 ? '' : 's'}, {history.replies}{' '}
            {history.replies === 1 ? 'reply' : 'replies'}
          </dd>
          <dt>Flags agreed</dt>
          <dd className={cx(history.flagsAgreed > 0 && 'adm-review__warn')}>{history.flagsAgreed}</dd>
          <dt>Suspensions</dt>
          <dd className={cx(history.suspensions > 0 && 'adm-review__warn')}>{history.suspensions}</dd>
          {history.isBanned && (
            <>
              <dt>Banned</dt>
              <dd className="adm-review__bad">{until(history.bannedUntil)}</dd>
            </>
          )}
          {history.silencedUntil && (
            <>
              <dt>Silenced</dt>
              <dd className="adm-review__bad">{until(history.silencedUntil)}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}

/** Every flag: its reason, the flagger's note, who and what their flag weighed. */
function FlagsView({ item }: { item: ReviewItem }) {
  return (
    <section className="adm-review__box" aria-label="Flags">
      <h4 className="adm-review__heading">FLAGS · score {item.score.toFixed(2).replace(/\.?0+$/, '')}</h4>
      {item.flags.length === 0 ? (
        <p className="adm-muted">No member flagged it.</p>
      ) : (
        <ul className="adm-review__flags">
          {item.flags.map((flag) => (
            <li key={flag.id} className="adm-review__flag">
              <span className="adm-review__reason">{FLAG_REASON_LABELS[flag.reason]}</span>
              <span className="adm-muted">
                by{' '}
                {flag.flagger ? (
                  <UserLink user={flag.flagger} />
                ) : (
                  <span className="adm-muted">a deleted account</span>
                )}{' '}
                · weight {flag.weight.toFixed(2).replace(/\.?0+$/, '')} ·{' '}
                <time dateTime={flag.createdAt}>{relativeTime(flag.createdAt)}</time>
              </span>
              {flag.note && <q className="adm-review__note">{flag.note}</q>}
            </li>
          ))}
        </ul>
      )}
      {item.signals.length > 0 && (
        <>
          <h4 className="adm-review__heading">SPAM SIGNALS</h4>
          <ul className="adm-review__signals">
            {item.signals.map((signal) => (
              <li key={signal}>{SPAM_SIGNAL_LABELS[signal]}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

const ICONS: Record<ReviewDecision, typeof Check> = {
  agree: Check,
  disagree: Eye,
  ignore: X,
  approve: Check,
  reject: Trash2,
};

/** The decisions an item takes: agree, disagree, ignore for a flagged one; approve, reject for a held post. */
export const decisionsOf = (item: ReviewItem): ReviewDecision[] =>
  item.kind === 'held' ? ['approve', 'reject'] : ['agree', 'disagree', 'ignore'];

/** Each decision's shortcut key. */
export const DECISION_KEYS: Record<ReviewDecision, string> = {
  agree: 'a',
  disagree: 'd',
  ignore: 'i',
  approve: 'p',
  reject: 'r',
};

/** The title of a card, for screen readers and tests: 'Flagged paste by spammer'. */
export const itemLabel = (item: ReviewItem) =>
  `${item.kind === 'held' ? 'Held' : 'Flagged'} ${TARGET_LABELS[item.targetType].toLowerCase()} by ${
    item.author?.username ?? 'a deleted account'
  }`;

/** One open item of the queue: the item as members see it, its author, its flags, and the decisions. */
export function ReviewCard({
  item,
  selected,
  pending,
  onSelect,
  onDecide,
  cardRef,
}: {
  item: ReviewItem;
  selected: boolean;
  pending: boolean;
  onSelect: () => void;
  onDecide: (decision: ReviewDecision) => void;
  cardRef?: Ref<HTMLElement>;
}) {
  return (
    <article
      ref={cardRef}
      className={cx('adm-review', selected && 'adm-review--selected')}
      aria-label={itemLabel(item)}
      aria-current={selected || undefined}
      tabIndex={-1}
      data-review-id={item.id}
      onFocus={onSelect}
      onClick={onSelect}
    >
      <header className="adm-review__head">
        <span className="adm-muted">
          #{item.id} · {item.flags.length} flag{item.flags.length === 1 ? '' : 's'} · updated{' '}
          <time dateTime={item.updatedAt}>{relativeTime(item.updatedAt)}</time>
        </span>
      </header>
      <div className="adm-review__body">
        <TargetView item={item} />
        <div className="adm-review__side">
          <AuthorView author={item.author} history={item.history} />
          <FlagsView item={item} />
        </div>
      </div>
      <div className="adm-review__actions" role="group" aria-label={`Decide #${item.id}`}>
        {decisionsOf(item).map((decision) => {
          const Icon = ICONS[decision];
          return (
            <Button
              key={decision}
              size="sm"
              variant={decision === 'agree' || decision === 'reject' ? 'danger' : 'outline'}
              disabled={pending}
              aria-keyshortcuts={DECISION_KEYS[decision]}
              onClick={(event) => {
                event.stopPropagation();
                onSelect();
                onDecide(decision);
              }}
            >
              <Icon size={12} aria-hidden="true" />
              {DECISION_LABELS[decision]}
              {decision === 'agree' ? '...' : ''}
              <kbd className="adm-review__kbd" aria-hidden="true">
                {DECISION_KEYS[decision]}
              </kbd>
            </Button>
          );
        })}
      </div>
    </article>
  );
}
