// Fetched the first time the help is asked for (keyboard.tsx): most visits never open it.
import * as Dialog from '@radix-ui/react-dialog';
import { Fragment, type RefObject } from 'react';
import { Button } from '../components/button.js';
import { keyLabel, SHORTCUTS, type Shortcut } from './shortcuts.js';

export interface KeyboardHelpProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the focus goes back to once the dialog has closed. */
  returnFocusRef: RefObject<HTMLElement | null>;
}

/** `g` then `h`; `o` or `Enter`. */
function Keys({ shortcut }: { shortcut: Shortcut }) {
  return shortcut.keys.map((sequence, i) => (
    <Fragment key={sequence.join(' ')}>
      {i > 0 && <span className="tp-shortcuts__sep"> or </span>}
      {sequence.map((key, j) => (
        <Fragment key={key}>
          {j > 0 && <span className="tp-shortcuts__sep"> then </span>}
          <kbd>{keyLabel(key)}</kbd>
        </Fragment>
      ))}
    </Fragment>
  ));
}

const GROUPS = ['Lists', 'Anywhere'] as const;
const GROUP_TITLES: Record<(typeof GROUPS)[number], string> = {
  Lists: 'Lists and pastes',
  Anywhere: 'Anywhere',
};

/** The `?` dialog: every shortcut, by group; Escape or CLOSE closes it. */
export default function KeyboardHelp({ open, onOpenChange, returnFocusRef }: KeyboardHelpProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="tp-dialog-overlay" />
        <Dialog.Content
          className="tp-dialog tp-shortcuts"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusRef.current?.focus();
            returnFocusRef.current = null;
          }}
        >
          <Dialog.Title className="tp-dialog__title">KEYBOARD SHORTCUTS</Dialog.Title>
          <Dialog.Description className="tp-dialog__description">
            Not while typing in a field, nor with Ctrl, Cmd or Alt held.
          </Dialog.Description>
          {GROUPS.map((group) => (
            <div key={group} className="tp-shortcuts__group">
              <h3 className="tp-shortcuts__heading">{GROUP_TITLES[group]}</h3>
              <dl className="tp-shortcuts__list">
                {SHORTCUTS.filter((s) => s.group === group).map((shortcut) => (
                  <div key={shortcut.description} className="tp-shortcuts__row">
                    <dt className="tp-shortcuts__keys">
                      <Keys shortcut={shortcut} />
                    </dt>
                    <dd className="tp-shortcuts__what">{shortcut.description}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
          <div className="tp-dialog__actions">
            <Dialog.Close asChild>
              <Button variant="outline">CLOSE</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
