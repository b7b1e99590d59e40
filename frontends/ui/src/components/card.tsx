import { useId, type ComponentProps, type ReactNode } from 'react';
import { cx } from '../lib/cx.js';

export interface CardProps extends Omit<ComponentProps<'section'>, 'title'> {
  /** Shown in the title bar as `┌─[ TITLE ]`; also the section's accessible name. */
  title?: ReactNode;
  /** Buttons or links at the right end of the title bar. */
  actions?: ReactNode;
  /**
   * The title's heading level: 1 for the card that is the screen itself (its title names the page, the
   * one h1 a screen reader lists first), 2 (the default) for a card among others.
   */
  titleLevel?: 1 | 2;
}

/** A bordered terminal window. */
export function Card({ title, actions, titleLevel = 2, className, children, ...props }: CardProps) {
  const titleId = useId();
  const Heading = titleLevel === 1 ? 'h1' : 'h2';
  const hasBar = title !== undefined || actions !== undefined;
  return (
    <section
      aria-labelledby={title !== undefined ? titleId : undefined}
      {...props}
      className={cx('tp-card', className)}
    >
      {hasBar && (
        <header className="tp-card__bar">
          <span className="tp-card__corner" aria-hidden="true">
            ┌─[
          </span>
          {title !== undefined && (
            <Heading id={titleId} className="tp-card__title">
              {title}
            </Heading>
          )}
          <span className="tp-card__corner" aria-hidden="true">
            ]
          </span>
          <span className="tp-card__rule" aria-hidden="true" />
          {actions !== undefined && <div className="tp-card__actions">{actions}</div>}
        </header>
      )}
      <div className="tp-card__body">{children}</div>
    </section>
  );
}
