import {
  type ExpiresIn,
  LIMITS,
  PAGES,
  TEXTS,
  type PasteDetail,
  type Visibility,
} from '@termpaste/contracts';
import { type EditPasteBody } from '@termpaste/contracts/revisions';
import {
  Button,
  CharCount,
  FormActions,
  Input,
  Label,
  LabelRow,
  Textarea,
  toast,
  useCurrentUser,
} from '@termpaste/ui';
import { useNavigate } from 'react-router-dom';
import { useId, useState, type FormEvent } from 'react';
import { useEditPaste } from '../api/revisions';
import { MARKDOWN_LANGUAGE } from './code-view';
import { ExpirySelect, exactTime } from './expiry';
import { LanguagePicker } from './language-picker';
import { TagInput } from './tags';
import { VisibilityPicker } from './visibility';

/**
 * The paste's EDIT form, filled with the paste as it is; SAVE sends what changed (the server keeps the
 * version before).
 */
export function EditPasteForm({ thread, onDone }: { thread: PasteDetail; onDone: () => void }) {
  const titleId = useId();
  const contentId = useId();
  const languageLabelId = useId();
  const expiryId = useId();
  const tagsLabelId = useId();
  const [title, setTitle] = useState(thread.title);
  const [language, setLanguage] = useState<string | null>(thread.language);
  const [content, setContent] = useState(thread.content ?? '');
  // '': as it is (a choice counts from now).
  const [expiresIn, setExpiresIn] = useState<ExpiresIn | ''>('');
  const [visibility, setVisibility] = useState<Visibility>(thread.visibility);
  const [tags, setTags] = useState<string[]>(thread.tags);
  const edit = useEditPaste(String(thread.id));
  const navigate = useNavigate();
  // Who may read it is its author's choice alone (an admin's edit keeps it).
  const { user } = useCurrentUser();
  const own = user !== null && user.id === thread.author?.id;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim() || !content.trim()) {
      toast({ title: TEXTS.validationTitle, description: TEXTS.validationText, variant: 'destructive' });
      return;
    }
    // Only what changed: an edit of the title alone sends no content (nothing to scan for secrets again).
    const body: EditPasteBody = {};
    if (title.trim() !== thread.title) body.title = title.trim();
    const picked = language === MARKDOWN_LANGUAGE ? null : language;
    if (picked !== thread.language) body.language = picked;
    if (content !== thread.content) body.content = content;
    if (expiresIn !== '') body.expiresIn = expiresIn;
    if (visibility !== thread.visibility) body.visibility = visibility;
    if (tags.join(',') !== thread.tags.join(',')) body.tags = tags;
    edit.mutate(body, {
      onSuccess: (edited) => {
        const same =
          edited.editedAt === thread.editedAt &&
          edited.expiresAt === thread.expiresAt &&
          edited.visibility === thread.visibility &&
          edited.tags.join(',') === thread.tags.join(',');
        toast({ title: same ? 'Nothing changed' : 'Paste saved' });
        onDone();
        // A change of visibility changes its link (its number, or its key).
        if (edited.id !== thread.id) navigate(PAGES.thread(edited.id), { replace: true });
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Edit paste" className="forum-edit">
      <fieldset className="tp-form-fields" disabled={edit.isPending}>
        <div className="tp-field">
          <LabelRow>
            <Label htmlFor={titleId}>Title</Label>
            <CharCount length={title.length} max={LIMITS.titleMax} testId="edit-title-counter" />
          </LabelRow>
          <Input
            id={titleId}
            value={title}
            maxLength={LIMITS.titleMax}
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
          <Label htmlFor={contentId}>Content</Label>
          <Textarea
            id={contentId}
            value={content}
            rows={14}
            className="forum-code-input"
            onChange={(event) => setContent(event.target.value)}
          />
        </div>
        <div className="tp-field">
          <Label htmlFor={expiryId}>Expires</Label>
          <ExpirySelect
            id={expiryId}
            value={expiresIn}
            onChange={setExpiresIn}
            keep={thread.expiresAt === null ? 'Never (as now)' : `As now (${exactTime(thread.expiresAt)})`}
          />
        </div>
        {own && <VisibilityPicker value={visibility} onChange={setVisibility} />}
        <FormActions>
          <Button variant="outline" onClick={onDone}>
            CANCEL
          </Button>
          <Button type="submit" variant="primary" loading={edit.isPending}>
            {edit.isPending ? 'SAVING...' : 'SAVE'}
          </Button>
        </FormActions>
      </fieldset>
    </form>
  );
}
