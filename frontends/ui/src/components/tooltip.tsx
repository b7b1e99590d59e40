import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { TOOLTIPS } from '@termpaste/contracts';
import type { ReactElement, ReactNode } from 'react';

export type TooltipSide = 'top' | 'right' | 'bottom' | 'left';

export interface TooltipProviderProps {
  children: ReactNode;
  delayDuration?: number;
  skipDelayDuration?: number;
}

/** One per app (inside UiProvider): hover delay 700 ms, then 300 ms to move to another trigger without delay. */
export function TooltipProvider({
  delayDuration = TOOLTIPS.delayMs,
  skipDelayDuration = TOOLTIPS.skipDelayMs,
  children,
}: TooltipProviderProps) {
  return (
    <TooltipPrimitive.Provider delayDuration={delayDuration} skipDelayDuration={skipDelayDuration}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

export interface TooltipProps {
  content: ReactNode;
  /** The trigger: one element that accepts a ref and event handlers (a button, a link). */
  children: ReactElement;
  side?: TooltipSide;
}

export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content className="tp-tooltip" side={side} sideOffset={6} collisionPadding={8}>
          {content}
          <TooltipPrimitive.Arrow className="tp-tooltip__arrow" width={10} height={5} />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
