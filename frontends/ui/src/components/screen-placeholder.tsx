import { Card } from './card.js';

/** A remote's screen that is not built yet: says which module answered, so routing can be checked. */
export function ScreenPlaceholder({ remote, title }: { remote: string; title: string }) {
  return (
    <Card titleLevel={1} title={title} data-testid="screen-placeholder">
      <p className="tp-muted">
        <span className="tp-prompt" aria-hidden="true" />
        module <strong>{remote}</strong> online. This screen is under construction.
      </p>
    </Card>
  );
}
