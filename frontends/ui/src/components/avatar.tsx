import { useState, type CSSProperties } from 'react';
import { cx } from '../lib/cx.js';
import { initials, type AvatarUser } from '../lib/format.js';

export interface AvatarProps {
  user: AvatarUser | null | undefined;
  /** Pixels; 32 by default. */
  size?: number;
  alt?: string;
  className?: string;
  /**
   * Initials drawn by CSS, not as text: beside the name inside a control (the user menu's button), whose
   * accessible name must hold the text it shows (WCAG 2.5.3), and the name already says who it is.
   */
  drawnInitials?: boolean;
}

function displayName(user: AvatarUser | null | undefined): string {
  const name = [user?.firstName, user?.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || user?.email?.trim() || user?.username?.trim() || 'Anonymous';
}

/**
 * avatarUrl, else profileImageUrl, else initials; an image that fails falls back to the next, never a broken
 * picture.
 */
export function Avatar({ user, size = 32, alt, className, drawnInitials = false }: AvatarProps) {
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const sources = [user?.avatarUrl, user?.profileImageUrl].filter(
    (url): url is string => typeof url === 'string' && url.trim() !== '' && !failed.has(url),
  );
  const src = sources[0];
  const label = alt ?? displayName(user);
  const style = { '--tp-avatar-size': `${size}px` } as CSSProperties;

  if (src) {
    return (
      <img
        key={src}
        src={src}
        alt={label}
        width={size}
        height={size}
        loading="lazy"
        className={cx('tp-avatar', className)}
        style={style}
        onError={() => setFailed((prev) => new Set(prev).add(src))}
      />
    );
  }
  // alt="" marks the avatar as decoration (a name beside it says who it is): hidden, as an <img alt="">
  // is, rather than an image without a name.
  const image = label === '' ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label };
  return (
    <span {...image} className={cx('tp-avatar', 'tp-avatar--initials', className)} style={style}>
      {drawnInitials ? (
        <span aria-hidden="true" className="tp-avatar__drawn" data-initials={initials(user)} />
      ) : (
        <span aria-hidden="true">{initials(user)}</span>
      )}
    </span>
  );
}
