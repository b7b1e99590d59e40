import type { PasteRef } from '@termpaste/contracts';
import {
  FLAG_NOTE_MAX,
  FLAG_REASON_LABELS,
  FLAG_REASONS,
  MODERATION_MESSAGES,
  MODERATION_TEXTS,
  type FlagReason,
  type FlagTarget,
} from '@termpaste/contracts/moderation';
import { Flag } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client.js';
import { Button } from '../components/button.js';
import { CharCount, Label, LabelRow, Textarea } from '../components/field.js';
import ModalDialog from '../components/modal-dialog.js';
import { useCurrentUser } from '../api/current-user.js';
import { cx } from '../lib/cx.js';
import type { FlagButtonProps } from './flag-button.js';
import { useMyFlag, useSendFlag } from './flags.js';

/** What the dialog's form says is wrong before anything is sent; null when it may be sent. */
export function flagFormError(reason: FlagReason | null, note: string): string | null {
  if (reason === null) return 'Choose a reason';
  if (note.length > FLAG_NOTE_MAX) return MODERATION_MESSAGES.noteTooLong;
  if (reason === 'other' && note.trim() === '') return MODERATION_MESSAGES.noteRequired;
  return null;
}

export interface FlagDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  targetType: FlagTarget;
  /** A paste's ref (its key unless public), else the item's number. */
  targetId: PasteRef;
  /** What is flagged, in the dialog's description ('the paste "nmap cheatsheet"'). */
  what: string;
}

/**
 * The flag form, in a terminal dialog: the reasons as a radio list, a note (required for "something
 * else", FLAG_NOTE_MAX at most, counted), SEND and CANCEL. The server's refusal is shown in the dialog,
 * which stays open; a sent flag closes it (the toast says so).
 */
export function FlagDialog({ open, onOpenChange, targetType, targetId, what }: FlagDialogProps) {
  const id = useId();
  const [reason, setReason] = useState<FlagReason | null>(null);
  const [note, setNote] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const send = useSendFlag();
  const local = flagFormError(reason, note);
  const noteInvalid = note.length > FLAG_NOTE_MAX || (shown !== null && reason === 'other' && !note.trim());

  const close = (next: boolean) => {
    if (!next) {
      setReason(null);
      setNote('');
      setShown(null);
      send.reset();
    }
    onOpenChange(next);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (local !== null || reason === null) {
      setShown(local);
      return;
    }
    setShown(null);
    const trimmed = note.trim();
    send.mutate(
      { targetType, targetId, reason, ...(trimmed ? { note: trimmed } : {}) },
      {
        onSuccess: () => close(false),
        onError: (error) => setShown(errorMessage(error, 'Could not send the flag. Try again.')),
      },
    );
  };

  return (
    <ModalDialog
      open={open}
      onOpenChange={close}
      className="tp-flag-dialog"
      title={
        <>
          <Flag className="tp-dialog__icon" size={16} aria-hidden="true" />
          {MODERATION_TEXTS.flagTitle}
        </>
      }
      description={what}
    >
      <form onSubmit={onSubmit} noValidate>
        <fieldset className="tp-flag-dialog__reasons">
          <legend className="tp-flag-dialog__legend">Why?</legend>
          {FLAG_REASONS.map((value) => (
            <label key={value} className="tp-flag-dialog__reason">
              <input
                type="radio"
                name={`${id}-reason`}
                value={value}
                checked={reason === value}
                onChange={() => {
                  setReason(value);
                  setShown(null);
                }}
              />
              <span>{FLAG_REASON_LABELS[value]}</span>
            </label>
          ))}
        </fieldset>
        <LabelRow>
          <Label htmlFor={`${id}-note`}>Note{reason === 'other' ? '' : ' (optional)'}</Label>
          <CharCount length={note.length} max={FLAG_NOTE_MAX} />
        </LabelRow>
        <Textarea
          id={`${id}-note`}
          rows={3}
          value={note}
          placeholder={reason === 'other' ? 'Say what is wrong' : 'Anything the staff should know'}
          aria-invalid={noteInvalid || undefined}
          aria-required={reason === 'other' || undefined}
          onChange={(event) => setNote(event.target.value)}
        />
        {shown !== null && (
          <p className={cx('tp-flag-dialog__error')} role="alert">
            {shown}
          </p>
        )}
        <div className="tp-dialog__actions">
          <Button type="button" variant="outline" onClick={() => close(false)}>
            CANCEL
          </Button>
          <Button type="submit" variant="primary" loading={send.isPending}>
            SEND
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}

/** FlagButton (flag-button.tsx) once loaded. */
export function FlagButton({ targetType, targetId, what, className }: FlagButtonProps) {
  const [open, setOpen] = useState(false);
  const { user } = useCurrentUser();
  const mine = useMyFlag(targetType, targetId);
  if (user === null) return null;
  if (mine) {
    return (
      <Button
        variant="ghost"
        size="sm"
        className={cx('tp-flag-button', className)}
        disabled
        aria-label={`${MODERATION_TEXTS.flagged} ${what}`}
      >
        <Flag size={12} aria-hidden="true" />
        {MODERATION_TEXTS.flagged}
      </Button>
    );
  }
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className={cx('tp-flag-button', className)}
        aria-label={`${MODERATION_TEXTS.flag} ${what}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <Flag size={12} aria-hidden="true" />
        {MODERATION_TEXTS.flag}
      </Button>
      {open && (
        <FlagDialog
          open={open}
          onOpenChange={setOpen}
          targetType={targetType}
          targetId={targetId}
          what={what}
        />
      )}
    </>
  );
}
