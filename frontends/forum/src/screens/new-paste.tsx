import { type ExpiresIn, LIMITS, PAGES, parsePasteRef, TEXTS, type Visibility } from '@termpaste/contracts';
import { MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { OWN_POSTS_TEXTS } from '@termpaste/contracts/own-posts';
import {
  Button,
  Card,
  CharCount,
  FormActions,
  Input,
  Label,
  LabelRow,
  Markdown,
  Spinner,
  Textarea,
  toast,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useGoBack } from '../lib/go-back';
import { isNotFoundError } from '../lib/not-found';
import { forkSourceQuery, useCreatePaste, useForkPaste } from '../api/pastes';
import { NotFoundCard } from '../components/not-found';
import { CodeView, isCodeLanguage } from '../components/code-view';
import { ExpirySelect } from '../components/expiry';
import { LanguagePicker } from '../components/language-picker';
import { TagInput } from '../components/tags';
import { VisibilityPicker } from '../components/visibility';

/**
 * /thread/new: title, language, tags, content, a preview, who may read it and how long it lives. With
 * `?fork=<ref>` it starts from that paste and FORK posts the fork.
 */
export function NewPasteScreen() {
  const [params] = useSearchParams();
  const forkOf = params.get('fork');
  // Only a paste's number or key goes into a request path.
  const named = forkOf !== null && parsePasteRef(forkOf) !== null;
  const original = useQuery({ ...forkSourceQuery(forkOf ?? ''), enabled: named });
  if (forkOf === null) return <PasteForm />;
  if (!named || isNotFoundError(original.error)) return <NotFoundCard text={TEXTS.pasteNotFound} />;
  if (original.isError) {
    return (
      <Card titleLevel={1} title="ERROR">
        <p className="forum-error">Could not load the paste to fork. Try again in a moment.</p>
      </Card>
    );
  }
  if (!original.data) return <Spinner label="Loading paste..." />;
  return <PasteForm key={forkOf} fork={{ ref: forkOf, ...original.data }} />;
}

/** The paste a fork starts from. */
interface ForkSource {
  ref: string;
  title: string;
  content?: string;
  language: string | null;
  tags: string[];
}

function PasteForm({ fork }: { fork?: ForkSource }) {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const titleId = useId();
  const contentId = useId();
  const languageLabelId = useId();
  const expiryId = useId();
  const tagsLabelId = useId();
  // Null until the member picks one: then the server keeps Markdown, or guesses terminal output.
  const [language, setLanguage] = useState<string | null>(fork?.language ?? null);
  const [title, setTitle] = useState(fork?.title ?? '');
  const [content, setContent] = useState(fork?.content ?? '');
  const [preview, setPreview] = useState(false);
  const [expiresIn, setExpiresIn] = useState<ExpiresIn>('never');
  const [burn, setBurn] = useState(false);
  const [visibility, setVisibility] = useState<Visibility>('public');
  // A fork starts with its original's tags (sent as they are then: none left means none).
  const [tags, setTags] = useState<string[]>(fork?.tags ?? []);
  const created = useCreatePaste();
  const forked = useForkPaste(fork?.ref ?? '');
  const create = fork ? forked : created;

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
        ...(expiresIn === 'never' ? {} : { expiresIn }),
        ...(burn ? { burnAfterReading: true } : {}),
        ...(visibility === 'public' ? {} : { visibility }),
        ...(tags.length > 0 || (fork && fork.tags.length > 0) ? { tags } : {}),
      },
      {
        onSuccess: (posted) => {
          // Held for review: there is no paste to show yet.
          if ('held' in posted) {
            toast({ title: MODERATION_TEXTS.heldOwn, description: posted.message });
            navigate(PAGES.home);
            return;
          }
          toast({ title: fork ? OWN_POSTS_TEXTS.forkCreated : 'Paste created', description: title.trim() });
          navigate(PAGES.thread(posted.id));
        },
      },
    );
  };

  return (
    <Card titleLevel={1} title={fork ? OWN_POSTS_TEXTS.forkFormTitle : 'ADD PASTE'} className="forum-narrow">
      {fork && (
        <p className="forum-muted forum-fork-of">
          {OWN_POSTS_TEXTS.forkedFrom} <Link to={PAGES.thread(fork.ref)}>{fork.title}</Link>
        </p>
      )}
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
            <Label id={tagsLabelId}>Tags</Label>
            <TagInput value={tags} onChange={setTags} labelId={tagsLabelId} />
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
          <div className="forum-life-fields">
            <div className="tp-field">
              <Label htmlFor={expiryId}>Expires</Label>
              <ExpirySelect
                id={expiryId}
                value={expiresIn}
                onChange={(value) => setExpiresIn(value === '' ? 'never' : value)}
              />
            </div>
            <label className="forum-check">
              <input type="checkbox" checked={burn} onChange={(event) => setBurn(event.target.checked)} />
              <span>
                Burn after reading
                <span className="forum-muted forum-check__hint">{OWN_POSTS_TEXTS.burnHint}</span>
              </span>
            </label>
          </div>
          <FormActions>
            <Button variant="outline" onClick={goBack}>
              CANCEL
            </Button>
            <Button type="submit" variant="primary" loading={create.isPending}>
              {create.isPending ? 'SUBMITTING...' : fork ? OWN_POSTS_TEXTS.forkSubmit : 'ADD PASTE'}
            </Button>
          </FormActions>
        </fieldset>
      </form>
    </Card>
  );
}
