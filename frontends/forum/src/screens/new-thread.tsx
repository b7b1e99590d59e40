import { LIMITS, PAGES, TEXTS } from '@termpaste/contracts';
import {
  Button,
  Card,
  CharCount,
  FormActions,
  Input,
  Label,
  LabelRow,
  Markdown,
  Textarea,
  toast,
} from '@termpaste/ui';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useGoBack } from '../lib/go-back';
import { useCreateThread } from '../api/forum';

/** /thread/new (SPEC §2): title with a live counter, content, Markdown preview, CANCEL and ADD PASTE. */
export function NewThreadScreen() {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const titleId = useId();
  const contentId = useId();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [preview, setPreview] = useState(false);
  const create = useCreateThread();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim() || !content.trim()) {
      toast({ title: TEXTS.validationTitle, description: TEXTS.validationText, variant: 'destructive' });
      return;
    }
    create.mutate(
      { title: title.trim(), content },
      {
        onSuccess: ({ id }) => {
          toast({ title: 'Paste created', description: title.trim() });
          navigate(PAGES.thread(id));
        },
      },
    );
  };

  return (
    <Card title="ADD PASTE" className="forum-narrow">
      <form onSubmit={submit} noValidate>
        <fieldset className="tp-form-fields" disabled={create.isPending}>
          <div className="tp-field">
            <LabelRow>
              <Label htmlFor={titleId}>Title</Label>
              <CharCount length={title.length} max={LIMITS.titleMax} testId="title-counter" />
            </LabelRow>
            <Input
              id={titleId}
              value={title}
              maxLength={LIMITS.titleMax}
              placeholder="nmap cheatsheet"
              autoFocus
              onChange={(event) => setTitle(event.target.value)}
            />
          </div>
          <div className="tp-field">
            <LabelRow>
              <Label htmlFor={contentId}>Content</Label>
              <Button variant="ghost" size="sm" aria-pressed={preview} onClick={() => setPreview((p) => !p)}>
                {preview ? 'HIDE PREVIEW' : 'SHOW PREVIEW'}
              </Button>
            </LabelRow>
            <Textarea
              id={contentId}
              value={content}
              rows={14}
              className="forum-code-input"
              placeholder="Paste your text here. Markdown supported: ```lang for code blocks."
              onChange={(event) => setContent(event.target.value)}
            />
          </div>
          {preview && (
            <section className="forum-preview" aria-label="Preview">
              {content.trim() ? (
                <Markdown>{content}</Markdown>
              ) : (
                <p className="forum-muted">Preview will appear here...</p>
              )}
            </section>
          )}
          <FormActions>
            <Button variant="outline" onClick={goBack}>
              CANCEL
            </Button>
            <Button type="submit" variant="primary" loading={create.isPending}>
              {create.isPending ? 'SUBMITTING...' : 'ADD PASTE'}
            </Button>
          </FormActions>
        </fieldset>
      </form>
    </Card>
  );
}
