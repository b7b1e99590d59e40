// Fetched with the first text sent through the secret warning's guard (secret-warning.tsx): pages that send
// no text load no dialog.
import * as Dialog from '@radix-ui/react-dialog';
import { type SecretFindingsBody, secretKind, SECRETS_MESSAGES } from '@termpaste/contracts';
import { TriangleAlert } from 'lucide-react';
import { Button } from './button.js';

export interface SecretWarningDialogProps {
  open: boolean;
  /** The server's 422: its message and findings. */
  body: SecretFindingsBody | undefined;
  /** EDIT, Escape or a click outside: the dialog closes and the text is not sent. */
  onEdit: () => void;
  /** PUBLISH ANYWAY: the text is sent again with allowSecrets. */
  onPublish: () => void;
  /** After closing, where the focus goes (the text to edit); else where it was before. */
  onCloseFocus?: () => void;
}

/**
 * The secret warning: each finding (kind, line and column, value masked by the server) with EDIT and
 * PUBLISH ANYWAY. A modal dialog (focus kept inside, Escape is EDIT), named by its title.
 */
export function SecretWarningDialog({
  open,
  body,
  onEdit,
  onPublish,
  onCloseFocus,
}: SecretWarningDialogProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onEdit();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="tp-dialog-overlay" />
        <Dialog.Content
          className="tp-dialog tp-secret-warning"
          role="dialog"
          onOpenAutoFocus={(event) => {
            // EDIT first: the safe choice is the one Enter takes.
            event.preventDefault();
            (event.currentTarget as HTMLElement | null)
              ?.querySelector<HTMLElement>('[data-secret-warning-edit]')
              ?.focus();
          }}
          onCloseAutoFocus={(event) => {
            if (!onCloseFocus) return;
            event.preventDefault();
            onCloseFocus();
          }}
        >
          <Dialog.Title className="tp-dialog__title">
            <TriangleAlert className="tp-dialog__icon" size={16} aria-hidden="true" />
            {SECRETS_MESSAGES.dialogTitle}
          </Dialog.Title>
          <Dialog.Description className="tp-dialog__description">
            {SECRETS_MESSAGES.dialogIntro} {body?.message}
          </Dialog.Description>
          <ul className="tp-secret-warning__findings" aria-label="Possible secrets">
            {body?.findings.map((finding, index) => (
              <li
                key={`${finding.line}:${finding.column}:${finding.rule}:${index}`}
                className="tp-secret-warning__finding"
              >
                <span className="tp-secret-warning__kind">{secretKind(finding.rule)}</span>
                <span className="tp-secret-warning__where">
                  line {finding.line}, col {finding.column}
                </span>
                <code className="tp-secret-warning__masked">{finding.masked}</code>
              </li>
            ))}
          </ul>
          <div className="tp-dialog__actions">
            <Button variant="outline" onClick={onEdit} data-secret-warning-edit="">
              {SECRETS_MESSAGES.edit}
            </Button>
            <Button variant="danger" onClick={onPublish}>
              {SECRETS_MESSAGES.publishAnyway}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
