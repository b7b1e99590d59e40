import { type CurrentUser } from '@termpaste/contracts';
import { SETTINGS_TEXTS } from '@termpaste/contracts/settings';
import { Avatar, Button, toast } from '@termpaste/ui';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useUploadAvatar } from '../api/settings';
import { AVATAR_ACCEPT, avatarFileProblem } from '../lib/upload';
import { ProgressBar } from './progress-bar';

/**
 * The avatar and its upload button: one image of at most 10 MB, refused before any request otherwise; a
 * progress bar.
 */
export function AvatarUpload({ user }: { user: CurrentUser }) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [progress, setProgress] = useState(0);
  const upload = useUploadAvatar(setProgress);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // The same file may be chosen again after a failure.
    event.target.value = '';
    if (files.length === 0) return;
    const problem = avatarFileProblem(files);
    if (problem) {
      toast({ title: SETTINGS_TEXTS.avatarFailed, description: problem, variant: 'destructive' });
      return;
    }
    setProgress(0);
    upload.mutate(files[0]!);
  };

  return (
    <div className="settings-avatar">
      <div className="settings-avatar__frame" data-busy={upload.isPending || undefined}>
        <Avatar user={user} size={128} />
      </div>
      <input
        ref={input}
        type="file"
        accept={AVATAR_ACCEPT}
        className="tp-sr-only"
        aria-label="Avatar image"
        aria-describedby={hintId}
        tabIndex={-1}
        disabled={upload.isPending}
        onChange={choose}
      />
      <Button
        variant="outline"
        size="sm"
        loading={upload.isPending}
        aria-describedby={hintId}
        onClick={() => input.current?.click()}
      >
        {upload.isPending ? SETTINGS_TEXTS.uploading : 'UPLOAD AVATAR'}
      </Button>
      {upload.isPending && (
        <div className="settings-avatar__progress">
          <ProgressBar value={progress} label="Upload progress" />
          <span className="tp-muted settings-avatar__percent" aria-live="polite">
            {progress}%
          </span>
        </div>
      )}
      <p id={hintId} className="tp-muted settings-hint">
        {SETTINGS_TEXTS.avatarHint}
      </p>
    </div>
  );
}
