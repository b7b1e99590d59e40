import { LIMITS, MESSAGE_CONTENT_MAX, TEXTS } from '@termpaste/contracts';
import { Button, Card, CharCount, FormActions, Input, Label, LabelRow, Textarea, toast } from '@termpaste/ui';
import { useId, useState, type FormEvent } from 'react';
import { useSendMessage } from '../api/messaging';

export interface ComposeDraft {
  to: string;
  subject: string;
}

/**
 * The compose form: TO (e-mail or username), SUBJECT (at most 200) and MESSAGE, all required once
 * trimmed (else the validation toast, no request); the server's refusal is toasted.
 */
export function ComposeForm({
  draft,
  onCancel,
  onSent,
}: {
  draft: ComposeDraft;
  onCancel: () => void;
  onSent: () => void;
}) {
  const ids = { to: useId(), subject: useId(), content: useId() };
  const [to, setTo] = useState(draft.to);
  const [subject, setSubject] = useState(draft.subject.slice(0, LIMITS.subjectMax));
  const [content, setContent] = useState('');
  const send = useSendMessage();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!to.trim() || !subject.trim() || !content.trim()) {
      toast({ title: TEXTS.validationTitle, description: TEXTS.validationText, variant: 'destructive' });
      return;
    }
    send.mutate({ recipientEmail: to.trim(), subject: subject.trim(), content }, { onSuccess: onSent });
  };

  // Focus goes to the first field still to fill in.
  const focus = !draft.to ? 'to' : !draft.subject ? 'subject' : 'content';
  return (
    <Card title="COMPOSE" className="msg-compose">
      <form onSubmit={submit} noValidate aria-label="Compose message">
        <fieldset className="tp-form-fields" disabled={send.isPending}>
          <div className="tp-field">
            <Label htmlFor={ids.to}>To</Label>
            <Input
              id={ids.to}
              value={to}
              placeholder="email or username"
              autoComplete="off"
              autoFocus={focus === 'to'}
              onChange={(event) => setTo(event.target.value)}
            />
          </div>
          <div className="tp-field">
            <LabelRow>
              <Label htmlFor={ids.subject}>Subject</Label>
              <CharCount length={subject.length} max={LIMITS.subjectMax} testId="subject-counter" />
            </LabelRow>
            <Input
              id={ids.subject}
              value={subject}
              maxLength={LIMITS.subjectMax}
              autoFocus={focus === 'subject'}
              onChange={(event) => setSubject(event.target.value)}
            />
          </div>
          <div className="tp-field">
            <Label htmlFor={ids.content}>Message</Label>
            <Textarea
              id={ids.content}
              value={content}
              rows={10}
              maxLength={MESSAGE_CONTENT_MAX}
              className="msg-compose__content"
              placeholder="Markdown supported"
              autoFocus={focus === 'content'}
              onChange={(event) => setContent(event.target.value)}
            />
          </div>
          <FormActions>
            <Button variant="outline" onClick={onCancel}>
              CANCEL
            </Button>
            <Button type="submit" loading={send.isPending}>
              {send.isPending ? 'SENDING...' : 'SEND'}
            </Button>
          </FormActions>
        </fieldset>
      </form>
    </Card>
  );
}
