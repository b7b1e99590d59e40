import { VISIBILITIES, type Visibility, VISIBILITY_TEXTS } from '@termpaste/contracts';
import { Badge } from '@termpaste/ui';
import { useId } from 'react';

/** The words each choice is shown by (its description: VISIBILITY_TEXTS). */
const VISIBILITY_NAMES: Record<Visibility, string> = {
  public: 'PUBLIC',
  unlisted: 'UNLISTED',
  private: 'PRIVATE',
};

/** Who may read the paste: three radio choices, each with what it means. */
export function VisibilityPicker({
  value,
  onChange,
}: {
  value: Visibility;
  onChange: (visibility: Visibility) => void;
}) {
  const name = useId();
  return (
    <fieldset className="forum-visibility">
      <legend className="tp-label">Visibility</legend>
      {VISIBILITIES.map((visibility) => (
        <label key={visibility} className="forum-visibility__choice">
          <input
            type="radio"
            name={name}
            value={visibility}
            checked={value === visibility}
            onChange={() => onChange(visibility)}
          />
          <span className="forum-visibility__name">{VISIBILITY_NAMES[visibility]}</span>
          <span className="forum-muted forum-visibility__what">
            {VISIBILITY_TEXTS[visibility].replace(/^[^:]+: /, '')}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** [UNLISTED] or [PRIVATE] beside a paste that is not public (nothing for a public one). */
export function VisibilityBadge({ visibility }: { visibility: Visibility }) {
  if (visibility === 'public') return null;
  return (
    <Badge
      variant={visibility === 'private' ? 'warning' : 'muted'}
      className="forum-visibility-badge"
      title={VISIBILITY_TEXTS[visibility]}
    >
      {VISIBILITY_NAMES[visibility]}
    </Badge>
  );
}
