import { LIMITS, TEXTS } from '@termpaste/contracts';
import { Button, Card, CharCount, FormActions, Input, Label, LabelRow, Textarea, toast } from '@termpaste/ui';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSendSupport } from '../api/settings';

/** The longest message the support form takes (supportRequestSchema). */
export const SUPPORT_CONTENT_MAX = 20_000;

/**
 * /support: a subject (at most 200) and a message, sent to the owner and every admin; both required once
 * trimmed. `?subject=` fills the subject in (the Upgrades page asks for a grade that way).
 */
export function SupportScreen() {
  const ids = { subject: useId(), content: useId() };
  const [params] = useSearchParams();
  const [subject, setSubject] = useState(() => (params.get('subject') ?? '').slice(0, LIMITS.subjectMax));
  const [content, setContent] = useState('');
  const send = useSendSupport();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!subject.trim() || !content.trim()) {
      toast({ title: TEXTS.validationTitle, description: TEXTS.validationText, variant: 'destructive' });
      return;
    }
    send.mutate(
      { subject: subject.trim(), content },
      {
        onSuccess: () => {
          setSubject('');
          setContent('');
        },
      },
    );
  };

  return (
    <Card titleLevel={1} title="SUPPORT" className="settings-page settings-narrow-page">
      <p className="tp-prompt settings-intro">
        Questions, problems, or a VIP grade you would like? Your message goes to the staff (the owner and the
        admins); their answer arrives in your messages.
      </p>
      <form onSubmit={submit} noValidate aria-label="Support request">
        <fieldset className="tp-form-fields" disabled={send.isPending}>
          <div className="tp-field">
            <LabelRow>
              <Label htmlFor={ids.subject}>Subject</Label>
              <CharCount length={subject.length} max={LIMITS.subjectMax} testId="subject-counter" />
            </LabelRow>
            <Input
              id={ids.subject}
              value={subject}
              maxLength={LIMITS.subjectMax}
              onChange={(event) => setSubject(event.target.value)}
            />
          </div>
          <div className="tp-field">
            <Label htmlFor={ids.content}>Message</Label>
            <Textarea
              id={ids.content}
              value={content}
              rows={10}
              maxLength={SUPPORT_CONTENT_MAX}
              placeholder="Describe what you need. Markdown supported."
              onChange={(event) => setContent(event.target.value)}
            />
          </div>
          <FormActions>
            <Button type="submit" loading={send.isPending}>
              {send.isPending ? 'SENDING...' : 'SEND'}
            </Button>
          </FormActions>
        </fieldset>
      </form>
    </Card>
  );
}
