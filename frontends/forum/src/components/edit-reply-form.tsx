import { TEXTS, type ReplyView } from '@termpaste/contracts';
import { Button, FormActions, Textarea, toast } from '@termpaste/ui';
import { useState, type FormEvent } from 'react';
import { useEditReply } from '../api/revisions';

/** A reply's EDIT form: its text, SAVE (PATCH: the version before is kept) and CANCEL. */
export function EditReplyForm({
  reply,
  threadId,
  onDone,
}: {
  reply: ReplyView;
  threadId: string;
  onDone: () => void;
}) {
  const [content, setContent] = useState(reply.content);
  const edit = useEditReply(threadId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!content.trim()) {
      toast({ title: TEXTS.validationTitle, description: TEXTS.validationText, variant: 'destructive' });
      return;
    }
    edit.mutate(
      { id: reply.id, content },
      {
        onSuccess: (edited) => {
          toast({ title: edited.editedAt === reply.editedAt ? 'Nothing changed' : 'Reply saved' });
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Edit reply" className="forum-edit">
      <fieldset className="tp-form-fields" disabled={edit.isPending}>
        <Textarea
          aria-label="Reply content"
          value={content}
          rows={6}
          autoFocus
          onChange={(event) => setContent(event.target.value)}
        />
        <FormActions>
          <Button variant="outline" size="sm" onClick={onDone}>
            CANCEL
          </Button>
          <Button type="submit" variant="primary" size="sm" loading={edit.isPending}>
            {edit.isPending ? 'SAVING...' : 'SAVE'}
          </Button>
        </FormActions>
      </fieldset>
    </form>
  );
}
