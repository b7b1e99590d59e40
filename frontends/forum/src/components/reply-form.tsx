import { type ReplyView, type PasteDetail } from '@termpaste/contracts';
import { MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { Button, FormActions, Textarea, toast } from '@termpaste/ui';
import { CornerDownRight } from 'lucide-react';
import { useId, useState, type FormEvent, type RefObject } from 'react';
import { useCreateReply } from '../api/pastes';

/**
 * The form that posts a reply, to the paste or to the reply `target` (named above the box, with a way to
 * cancel). The page holds the target and the box's ref: a reply's REPLY button sets one and focuses the other.
 */
export function ReplyForm({
  thread,
  target,
  onClearTarget,
  textareaRef,
}: {
  thread: PasteDetail;
  target: ReplyView | null;
  onClearTarget: () => void;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const id = useId();
  const [content, setContent] = useState('');
  const create = useCreateReply(String(thread.id));
  const blank = content.trim().length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank) return;
    create.mutate(
      { content, parentId: target?.id ?? null },
      {
        onSuccess: (posted) => {
          toast(
            'held' in posted
              ? { title: MODERATION_TEXTS.heldOwn, description: posted.message }
              : { title: 'Reply posted' },
          );
          setContent('');
          onClearTarget();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="forum-reply-form" aria-label="Reply">
      {target && (
        <p className="forum-reply-form__target">
          <CornerDownRight size={13} aria-hidden="true" /> Replying to{' '}
          <strong>{target.author?.username ?? 'Anonymous'}</strong>
          <Button variant="ghost" size="sm" onClick={onClearTarget}>
            CANCEL REPLY
          </Button>
        </p>
      )}
      <label htmlFor={id} className="tp-sr-only">
        Your reply
      </label>
      <Textarea
        id={id}
        ref={textareaRef}
        value={content}
        disabled={create.isPending}
        placeholder="Write a reply... (Markdown supported)"
        onChange={(event) => setContent(event.target.value)}
      />
      <FormActions>
        <Button type="submit" variant="primary" disabled={blank} loading={create.isPending}>
          POST REPLY
        </Button>
      </FormActions>
    </form>
  );
}
