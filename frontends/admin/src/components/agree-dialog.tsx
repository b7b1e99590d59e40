import {
  MODERATION_MESSAGES,
  MODERATION_TEXTS,
  SUSPENSION_REASON_MAX,
  type ReviewDecisionBody,
  type ReviewItem,
} from '@termpaste/contracts/moderation';
import { Button, Modal } from '@termpaste/ui';
import { Check } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { itemLabel } from './review-item';
import { SuspensionFields } from './suspension-fields';

/** What happens to the author besides: nothing, a ban (suspension) or a silence, for a number of days. */
type Step = 'none' | 'suspend' | 'silence';

/** Posts the queue can delete (a member or a private message is not deleted from here). */
const DELETABLE = new Set<ReviewItem['targetType']>(['paste', 'reply', 'chat']);

/** The AGREE body from the dialog's choices; a string when the choices are not complete. */
export function agreeBody(choice: {
  deletePost: boolean;
  step: Step;
  days: number;
  reason: string;
}): ReviewDecisionBody | string {
  const reason = choice.reason.trim();
  if (choice.step !== 'none' && reason === '') return MODERATION_MESSAGES.reasonRequired;
  if (reason.length > SUSPENSION_REASON_MAX) return MODERATION_MESSAGES.reasonTooLong;
  return {
    decision: 'agree',
    deletePost: choice.deletePost,
    ...(choice.step === 'suspend' ? { suspendDays: choice.days, reason } : {}),
    ...(choice.step === 'silence' ? { silenceDays: choice.days, reason } : {}),
  };
}

/**
 * AGREE's choices: keep the post hidden or delete it, and optionally suspend or silence its author for
 * some days with a reason (mailed to them). Enter in a field does not send; AGREE does.
 */
export function AgreeDialog({
  item,
  onClose,
  onAgree,
}: {
  /** The item agreed on; null: the dialog is closed. */
  item: ReviewItem | null;
  onClose: () => void;
  onAgree: (body: ReviewDecisionBody) => void;
}) {
  const id = useId();
  const [deletePost, setDeletePost] = useState(false);
  const [step, setStep] = useState<Step>('none');
  const [days, setDays] = useState(1);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setDeletePost(false);
    setStep('none');
    setDays(1);
    setReason('');
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = agreeBody({ deletePost, step, days, reason });
    if (typeof body === 'string') {
      setError(body);
      return;
    }
    onAgree(body);
    reset();
  };

  const canDelete = item !== null && DELETABLE.has(item.targetType);
  const hasAuthor = item?.author != null;
  return (
    <Modal
      open={item !== null}
      onOpenChange={(open) => !open && close()}
      className="adm-agree"
      title={MODERATION_TEXTS.agree}
      description={item ? `${itemLabel(item)}: the flags are right.` : ''}
    >
      <form onSubmit={submit} noValidate className="adm-agree__form">
        {canDelete && (
          <fieldset className="adm-agree__set">
            <legend className="adm-agree__legend">The post</legend>
            <label className="adm-agree__option">
              <input
                type="radio"
                name={`${id}-post`}
                checked={!deletePost}
                onChange={() => setDeletePost(false)}
              />
              Keep it hidden
            </label>
            <label className="adm-agree__option">
              <input
                type="radio"
                name={`${id}-post`}
                checked={deletePost}
                onChange={() => setDeletePost(true)}
              />
              Delete it (to the trash)
            </label>
          </fieldset>
        )}
        {hasAuthor && (
          <fieldset className="adm-agree__set">
            <legend className="adm-agree__legend">Its author, {item?.author?.username}</legend>
            {(
              [
                ['none', 'No further action'],
                ['suspend', 'Suspend (cannot sign in)'],
                ['silence', 'Silence (read-only)'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="adm-agree__option">
                <input
                  type="radio"
                  name={`${id}-step`}
                  checked={step === value}
                  onChange={() => {
                    setStep(value);
                    setError(null);
                  }}
                />
                {label}
              </label>
            ))}
          </fieldset>
        )}
        {step !== 'none' && (
          // A decision's suspension or silence is timed, with a reason (a ban for ever is on USERS):
          // the silence's choices for both.
          <SuspensionFields
            kind="silence"
            value={{ days, reason }}
            error={error}
            onChange={(next) => {
              setDays(next.days ?? 1);
              setReason(next.reason);
              setError(null);
            }}
          />
        )}
        {error && step === 'none' && (
          <p className="adm-error" role="alert">
            {error}
          </p>
        )}
        <div className="tp-dialog__actions">
          <Button variant="outline" onClick={close}>
            CANCEL
          </Button>
          <Button type="submit" variant="danger">
            <Check size={14} aria-hidden="true" />
            {MODERATION_TEXTS.agree}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
