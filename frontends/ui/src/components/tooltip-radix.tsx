// Fetched when a pointer or the focus first reaches a tooltip's trigger (tooltip.tsx).
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { useEffect, useRef, useState, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import type { TooltipGroup } from './tooltip.js';

export interface RadixTooltipProps {
  content: ReactNode;
  children: ReactElement;
  side: 'top' | 'right' | 'bottom' | 'left';
  group: TooltipGroup;
  /** The trigger had the focus before this replaced it: it gets it back (and so shows its tooltip). */
  refocus: boolean;
}

/**
 * One Radix tooltip. Its open state is ours: Radix opens it after the group's delay (or on focus) and
 * closes it; a trigger reached while its group is warm (a tooltip open, or closed a moment ago) opens at
 * once, as one Radix provider above every tooltip would do.
 */
export default function RadixTooltip({ content, children, side, group, refocus }: RadixTooltipProps) {
  const [open, setOpen] = useState(false);
  const warm = useSyncExternalStore(group.subscribe, group.isWarm, group.isWarm);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (refocus) trigger.current?.focus();
  }, [refocus]);

  const change = (next: boolean) => {
    setOpen(next);
    if (next) group.opened();
    else group.closed();
  };

  return (
    <TooltipPrimitive.Provider delayDuration={group.delayDuration} skipDelayDuration={0}>
      <TooltipPrimitive.Root open={open} onOpenChange={change}>
        <TooltipPrimitive.Trigger
          asChild
          ref={trigger}
          onPointerMove={(event) => {
            if (warm && !open && event.pointerType !== 'touch') change(true);
          }}
        >
          {children}
        </TooltipPrimitive.Trigger>
        <TooltipPrimitive.Portal>
          <TooltipPrimitive.Content className="tp-tooltip" side={side} sideOffset={6} collisionPadding={8}>
            {content}
            <TooltipPrimitive.Arrow className="tp-tooltip__arrow" width={10} height={5} />
          </TooltipPrimitive.Content>
        </TooltipPrimitive.Portal>
      </TooltipPrimitive.Root>
    </TooltipPrimitive.Provider>
  );
}
