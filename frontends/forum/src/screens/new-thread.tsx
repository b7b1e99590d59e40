import { LIMITS, PAGES, TEXTS, type Visibility } from '@termpaste/contracts';
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
import { CodeView, isCodeLanguage } from '../components/code-view';
import { LanguagePicker } from '../components/language-picker';
import { VisibilityPicker } from '../components/visibility';

/**
 * /thread/new (SPEC §2): title with a live counter, the language (issue 16: Markdown by default),
 * content, a preview (Markdown, or the code view), who may read it (public by default), CANCEL and
 * ADD PASTE.
 */
export function NewThreadScreen() {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const titleId = useId();
  const contentId = useId();
  const languageLabelId = useId();
  // Null until the member picks one: then the server keeps Markdown, or guesses terminal output.
  const [language, setLanguage] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [preview, setPreview] = useState(false);
  const [visibility, setVisibility] = useState<Visibility>('public');
  const create = useCreateThread();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim() || !content.trim()) {
      toast({ title: TEXTS.validationTitle, description: TEXTS.validationText, variant: 'destructive' });
      return;
    }
    create.mutate(
      {
        title: title.trim(),
        content,
        ...(language === null ? {} : { language }),
        ...(visibility === 'public' ? {} : { visibility }),
      },
      {
        onSuccess: ({ id }) => {
          toast({ title: 'Paste created', description: title.trim() });
          navigate(PAGES.thread(id));
        },
      },
    );
  };

  return (
    <Card titleLevel={1} title="ADD PASTE" className="forum-narrow">
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
            <Label id={languageLabelId}>Language</Label>
            <LanguagePicker value={language} onChange={setLanguage} labelId={languageLabelId} />
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
                isCodeLanguage(language) ? (
                  <CodeView text={content} language={language} label="Preview of the paste" />
                ) : (
                  <Markdown>{content}</Markdown>
                )
              ) : (
                <p className="forum-muted">Preview will appear here...</p>
              )}
            </section>
          )}
          <VisibilityPicker value={visibility} onChange={setVisibility} />
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
