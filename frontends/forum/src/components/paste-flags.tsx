import { isHotPaste, type PasteCard } from '@termpaste/contracts';
import { Tooltip } from '@termpaste/ui';
import { Flame, Lock, Pin, Star } from 'lucide-react';
import type { ReactNode } from 'react';

const FLAGS: Array<{ label: string; icon: ReactNode; on: (thread: PasteCard) => boolean }> = [
  { label: 'Pinned', icon: <Pin size={14} />, on: (t) => t.isPinned },
  { label: 'Locked', icon: <Lock size={14} />, on: (t) => t.isLocked },
  { label: 'Featured', icon: <Star size={14} />, on: (t) => t.isFeatured },
  { label: 'Hot', icon: <Flame size={14} />, on: isHotPaste },
];

/** The icons of a paste's flags: pinned, locked, featured and hot, each with a tooltip. */
export function PasteFlags({ thread }: { thread: PasteCard }) {
  const shown = FLAGS.filter((flag) => flag.on(thread));
  if (shown.length === 0) return null;
  return (
    <span className="forum-flags">
      {shown.map((flag) => (
        <Tooltip key={flag.label} content={flag.label}>
          <span
            role="img"
            aria-label={flag.label}
            className={`forum-flag forum-flag--${flag.label.toLowerCase()}`}
          >
            {flag.icon}
          </span>
        </Tooltip>
      ))}
    </span>
  );
}
