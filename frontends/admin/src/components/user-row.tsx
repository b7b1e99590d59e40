import {
  effectiveRank,
  PAGES,
  PREMIUM_RANKS,
  usernameSchema,
  USERNAME,
  type CurrentUser,
  type PremiumRankName,
} from '@termpaste/contracts';
import { adminRowActions, stillHolds } from '@termpaste/contracts/permissions';
import { ADMIN_MESSAGES, ADMIN_TEXTS, type AdminUser } from '@termpaste/contracts/admin';
import {
  Avatar,
  Badge,
  Button,
  Input,
  RankBadge,
  TableCell,
  TableRow,
  UserName,
  shortDate,
  useConfirm,
  type ConfirmOptions,
} from '@termpaste/ui';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { useUserAction, type UserAction } from '../api/admin';
import { askSuspension, banBody, silenceBody, type SuspensionKind, untilLabel } from './suspension-fields';

/** Columns of the users table; the grades panel row spans them all. */
export const USER_COLUMNS = ['User', 'Email', 'Status', 'Rank', 'Joined', 'Actions'] as const;

function confirmFor(user: AdminUser, action: UserAction): ConfirmOptions {
  const name = user.username;
  switch (action.kind) {
    case 'ban':
      return {
        title: `Ban ${name}?`,
        description: 'Their sessions end at once and they cannot sign in until unbanned.',
        confirmLabel: 'BAN',
        destructive: true,
      };
    case 'unban':
      return { title: `Unban ${name}?`, description: 'They can sign in again.', confirmLabel: 'UNBAN' };
    case 'silence':
      // Asked by askSuspension, with its duration and reason.
      return { title: `Silence ${name}?` };
    case 'unsilence':
      return {
        title: `Unsilence ${name}?`,
        description: 'They can post, reply, vote, chat and send messages again.',
        confirmLabel: 'UNSILENCE',
      };
    case 'spammer':
      return {
        title: `Delete ${name} as a spammer?`,
        description: (
          <span className="adm-delete-choice">
            <span>
              The account is deleted with all their pastes, replies and chat messages, at once. Their e-mail
              address is remembered as a hash, and its domain (unless a common mail provider's), so new posts
              from them are held for review. This cannot be undone.
            </span>
          </span>
        ),
        confirmLabel: 'DELETE SPAMMER',
        destructive: true,
      };
    case 'delete':
      return {
        title: `Delete ${name}?`,
        description: <DeleteChoice action={action} />,
        confirmLabel: 'DELETE',
        destructive: true,
      };
    case 'deleteAvatar':
      return {
        title: `Delete ${name}'s avatar?`,
        description: 'Their initials are shown instead.',
        confirmLabel: 'DELETE AVATAR',
        destructive: true,
      };
    case 'rename':
      return {
        title: `Rename ${name} to ${action.username}?`,
        description: 'Their pastes, replies and messages show the new name.',
        confirmLabel: 'RENAME',
      };
    case 'grades':
      return {
        title: `Update ${name}'s VIP grades?`,
        description: action.grades.length ? `Owned: ${action.grades.join(', ')}` : 'No VIP grades.',
        confirmLabel: 'SAVE GRADES',
      };
    case 'role':
      return action.isAdmin
        ? {
            title: `Make ${name} an admin?`,
            description: 'Admins moderate pastes and replies and manage members.',
            confirmLabel: 'MAKE ADMIN',
          }
        : {
            title: `Revoke admin from ${name}?`,
            description: 'They become a plain member.',
            confirmLabel: 'REVOKE ADMIN',
            destructive: true,
          };
  }
}

/**
 * The delete prompt's two choices, as the member's own deletion offers: keep their pastes and replies
 * (as Anonymous, the default) or delete them. The choice is written on the action the prompt confirms.
 */
function DeleteChoice({ action }: { action: Extract<UserAction, { kind: 'delete' }> }) {
  const [keep, setKeep] = useState(action.keepContent !== false);
  const choose = (value: boolean) => {
    action.keepContent = value;
    setKeep(value);
  };
  return (
    <span className="adm-delete-choice">
      <span>
        The account is deleted; their sessions, votes, messages and e-mail address go. This cannot be undone.
      </span>
      <label className="adm-delete-choice__option">
        <input type="radio" name="keepContent" checked={keep} onChange={() => choose(true)} /> Keep their
        pastes and replies, shown as Anonymous
      </label>
      <label className="adm-delete-choice__option">
        <input type="radio" name="keepContent" checked={!keep} onChange={() => choose(false)} /> Delete their
        pastes and replies
      </label>
    </span>
  );
}

/** The client-side check of a new username: 'Username cannot be empty', then the sign-up rules. */
function usernameError(value: string): string | null {
  if (value.trim() === '') return ADMIN_MESSAGES.usernameEmpty;
  const parsed = usernameSchema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid username');
}

function RenameForm({
  user,
  pending,
  onSave,
  onCancel,
}: {
  user: AdminUser;
  pending: boolean;
  onSave: (username: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(user.username);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = usernameError(value);
    setError(problem);
    if (problem) return;
    const username = value.trim();
    if (username === user.username) onCancel();
    else onSave(username);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancel();
  };

  return (
    <form className="adm-rename" aria-label={`Rename ${user.username}`} onSubmit={onSubmit} noValidate>
      <div className="adm-rename__row">
        <Input
          aria-label="New username"
          value={value}
          maxLength={USERNAME.max}
          autoFocus
          disabled={pending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
        />
        <Button type="submit" size="sm" loading={pending}>
          SAVE
        </Button>
        <Button variant="ghost" size="sm" disabled={pending} onClick={onCancel}>
          CANCEL
        </Button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="adm-error adm-rename__error">
          {error}
        </p>
      )}
    </form>
  );
}

function RanksPanel({
  user,
  pending,
  onSave,
  onCancel,
}: {
  user: AdminUser;
  pending: boolean;
  onSave: (grades: PremiumRankName[]) => void;
  onCancel: () => void;
}) {
  const [grades, setRanks] = useState<ReadonlySet<string>>(() => new Set(user.ownedPremiumRanks));
  const toggle = (name: string) =>
    setRanks((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // In catalogue order, whatever order they were ticked in.
    onSave(PREMIUM_RANKS.map((rank) => rank.name as PremiumRankName).filter((name) => grades.has(name)));
  };

  return (
    <div
      role="dialog"
      aria-label={`VIP grades of ${user.username}`}
      className="adm-grades"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <form onSubmit={onSubmit}>
        <fieldset className="adm-grades__set" disabled={pending}>
          <legend className="adm-grades__legend">VIP grades of {user.username}</legend>
          {PREMIUM_RANKS.map((rank) => (
            <label key={rank.name} className="adm-grades__option">
              <input
                type="checkbox"
                checked={grades.has(rank.name)}
                aria-label={rank.name}
                onChange={() => toggle(rank.name)}
                autoFocus={rank === PREMIUM_RANKS[0]}
              />
              <RankBadge rank={rank} />
              <span className={`rank-${rank.style}`}>{rank.name}</span>
            </label>
          ))}
        </fieldset>
        <div className="adm-grades__actions">
          <Button variant="ghost" size="sm" disabled={pending} onClick={onCancel}>
            CANCEL
          </Button>
          <Button type="submit" size="sm" loading={pending}>
            SAVE GRADES
          </Button>
        </div>
      </form>
    </div>
  );
}

/**
 * BANNED or ACTIVE, and how long and why: 'until …' or 'for ever', the reason,
 * and SILENCED with its end and reason.
 */
function StatusCell({ user }: { user: AdminUser }) {
  const silenced = stillHolds(user.silencedUntil);
  return (
    <span className="adm-status__lines">
      {user.isBanned ? <Badge variant="danger">BANNED</Badge> : <Badge variant="accent">ACTIVE</Badge>}
      {user.isBanned && (user.bannedUntil || user.banReason) && (
        <span className="adm-status__term">
          {user.bannedUntil ? `banned until ${untilLabel(user.bannedUntil)}` : 'banned for ever'}
          {user.banReason && <span className="adm-status__reason">{user.banReason}</span>}
        </span>
      )}
      {silenced && (
        <>
          <Badge variant="warning">SILENCED</Badge>
          <span className="adm-status__term">
            silenced until {untilLabel(user.silencedUntil!)}
            {user.silenceReason && <span className="adm-status__reason">{user.silenceReason}</span>}
          </span>
        </>
      )}
    </span>
  );
}

/**
 * One member of the users table: avatar and name with [OWNER] or [ADMIN], e-mail, BANNED or
 * ACTIVE, rank, joined, and the actions the viewer may take, each behind a confirm prompt. The owner's
 * row reads 'Protected Account' instead.
 */
export function UserRow({ user, viewer }: { user: AdminUser; viewer: CurrentUser }) {
  const confirm = useConfirm();
  const action = useUserAction(user, viewer.id);
  const [editing, setEditing] = useState(false);
  const [ranksOpen, setRanksOpen] = useState(false);
  const allowed = adminRowActions(viewer, user);
  const rank = effectiveRank(user);
  const pending = action.isPending;

  const run = async (asked: UserAction, after?: () => void) => {
    // A fresh action each time: the delete prompt writes its choice on it.
    const next: UserAction = asked.kind === 'delete' ? { kind: 'delete', keepContent: true } : asked;
    if (!(await confirm(confirmFor(user, next)))) return;
    action.mutate(next, { onSuccess: after });
  };
  /** BAN and SILENCE: the prompt asks for the duration and the reason. */
  const suspend = (kind: SuspensionKind) => async () => {
    const terms = await askSuspension(confirm, kind, user.username);
    if (!terms) return;
    action.mutate(
      kind === 'ban' ? { kind: 'ban', body: banBody(terms) } : { kind: 'silence', body: silenceBody(terms) },
    );
  };
  const act = (next: UserAction) => () => void run(next);

  /** The row's buttons in their order; those the viewer may not use are not shown (adminRowActions). */
  const buttons: Array<{
    label: string;
    shown: boolean;
    onClick: () => void;
    danger?: boolean;
    /** Also disabled while this holds. */
    busy?: boolean;
    /** aria-expanded, for the button that opens a panel. */
    expanded?: boolean;
  }> = [
    { label: 'BAN', shown: allowed.ban, danger: true, onClick: () => void suspend('ban')() },
    { label: 'UNBAN', shown: allowed.unban, onClick: act({ kind: 'unban' }) },
    { label: 'SILENCE', shown: allowed.silence, onClick: () => void suspend('silence')() },
    { label: 'UNSILENCE', shown: allowed.unsilence, onClick: act({ kind: 'unsilence' }) },
    { label: 'EDIT USERNAME', shown: allowed.rename, busy: editing, onClick: () => setEditing(true) },
    { label: 'DELETE AVATAR', shown: allowed.deleteAvatar, onClick: act({ kind: 'deleteAvatar' }) },
    {
      label: 'GRADES',
      shown: allowed.grades,
      expanded: ranksOpen,
      onClick: () => setRanksOpen((open) => !open),
    },
    {
      label: user.isAdmin ? 'REVOKE ADMIN' : 'MAKE ADMIN',
      shown: allowed.role,
      onClick: act({ kind: 'role', isAdmin: !user.isAdmin }),
    },
    { label: 'DELETE', shown: allowed.delete, danger: true, onClick: act({ kind: 'delete' }) },
    { label: 'DELETE SPAMMER', shown: allowed.spammer, danger: true, onClick: act({ kind: 'spammer' }) },
  ];

  return (
    <>
      <TableRow data-testid={`user-${user.id}`} aria-label={user.username}>
        <TableCell className="adm-user-cell">
          {editing ? (
            <RenameForm
              user={user}
              pending={pending}
              onCancel={() => setEditing(false)}
              onSave={(username) => void run({ kind: 'rename', username }, () => setEditing(false))}
            />
          ) : (
            <span className="adm-identity">
              <Link to={PAGES.profile(user.id)} className="adm-user-link">
                <Avatar user={user} size={24} alt="" />
                <UserName user={{ ...user, activePremiumRank: rank.isPremium ? rank.name : null }} />
              </Link>
              {user.isOwner ? (
                <Badge variant="warning">[OWNER]</Badge>
              ) : (
                user.isAdmin && <Badge variant="accent">[ADMIN]</Badge>
              )}
              {user.id === viewer.id && <span className="adm-muted">(you)</span>}
            </span>
          )}
        </TableCell>
        <TableCell className="adm-email">{user.email}</TableCell>
        <TableCell className="adm-status">
          <StatusCell user={user} />
        </TableCell>
        <TableCell>
          <RankBadge rank={rank} />
        </TableCell>
        <TableCell className="adm-nowrap adm-muted">
          <time dateTime={user.createdAt}>{shortDate(user.createdAt)}</time>
        </TableCell>
        <TableCell>
          {allowed.protected ? (
            <span className="adm-protected">{ADMIN_TEXTS.protectedAccount}</span>
          ) : !buttons.some((button) => button.shown) ? (
            // Another admin's row for an admin who is not the owner: nothing the server would take.
            <span className="adm-muted">{ADMIN_TEXTS.ownerOnly}</span>
          ) : (
            <div className="adm-actions" role="group" aria-label={`Actions for ${user.username}`}>
              {buttons
                .filter((button) => button.shown)
                .map(({ label, danger, onClick, expanded, busy }) => (
                  <Button
                    key={label}
                    variant={danger ? 'danger' : 'outline'}
                    size="sm"
                    disabled={pending || busy}
                    aria-expanded={expanded}
                    onClick={onClick}
                  >
                    {label}
                  </Button>
                ))}
            </div>
          )}
        </TableCell>
      </TableRow>
      {ranksOpen && allowed.grades && (
        <TableRow className="adm-grades-row">
          <TableCell colSpan={USER_COLUMNS.length}>
            <RanksPanel
              user={user}
              pending={pending}
              onCancel={() => setRanksOpen(false)}
              onSave={(grades) => void run({ kind: 'grades', grades }, () => setRanksOpen(false))}
            />
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
