// Fetched when the sidebar is first opened on a phone (sidebar.tsx).
import { SIDEBAR } from '@termpaste/contracts';
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/** The sidebar as a sheet sliding over the page from the left. */
export default function SidebarSheet({
  open,
  onOpenChange,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="shell-sheet__overlay" />
        <Dialog.Content
          className="shell-sidebar shell-sheet"
          style={{ width: SIDEBAR.widthMobile }}
          aria-describedby={undefined}
        >
          <Dialog.Title className="tp-sr-only">Navigation</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
