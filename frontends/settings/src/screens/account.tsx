import { PAGES } from '@termpaste/contracts';
import { ACCOUNT_TEXTS, EXPORT_EVERY_HOURS, type ExportStatusBody } from '@termpaste/contracts/account';
import {
  Badge,
  Button,
  Card,
  FormFields,
  Notice,
  relativeTime,
  shortDate,
  Spinner,
  TextField,
  useConfirm,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  ACCOUNT_SCREEN_TEXTS,
  exportQuery,
  useConfirmDelete,
  useDeleteAccount,
  useRequestExport,
} from '../api/account';
import { identitiesQuery } from '../api/sso';

const BADGE: Record<ExportStatusBody['status'], 'accent' | 'muted' | 'danger'> = {
  none: 'muted',
  queued: 'muted',
  running: 'muted',
  ready: 'accent',
  failed: 'danger',
  expired: 'muted',
};

/** The newest export's state, and its link while ready. */
function ExportState({ data }: { data: ExportStatusBody }) {
  return (
    <div className="settings-account__export" data-testid="export-status">
      <p className="settings-account__status">
        <span className="tp-muted">STATUS</span> <Badge variant={BADGE[data.status]}>{data.status}</Badge>{' '}
        <span>{ACCOUNT_TEXTS.exportStatus[data.status]}</span>
      </p>
      {data.requestedAt && (
        <p className="tp-muted settings-hint">
          Asked for {relativeTime(data.requestedAt)}
          {data.expiresAt && data.status === 'ready' && <> · link works until {shortDate(data.expiresAt)}</>}
        </p>
      )}
      {data.status === 'ready' && data.url && (
        <a className="tp-button tp-button--primary tp-button--md settings-account__download" href={data.url}>
          {ACCOUNT_TEXTS.exportDownload}
        </a>
      )}
    </div>
  );
}

/** EXPORT MY DATA: the newest export's state, its link while ready, and the button (one a day). */
function ExportSection() {
  const status = useQuery(exportQuery);
  const request = useRequestExport();
  const busy = status.data?.status === 'queued' || status.data?.status === 'running';
  return (
    <section className="settings-account__section" aria-labelledby="export-title">
      <h2 id="export-title" className="tp-label settings-account__title">
        {ACCOUNT_TEXTS.exportTitle}
      </h2>
      <p className="tp-muted settings-hint">{ACCOUNT_TEXTS.exportHelp}</p>
      {status.isPending ? (
        <Spinner label="Loading your export..." />
      ) : status.isError ? (
        <p className="tp-danger">{ACCOUNT_SCREEN_TEXTS.loadFailed}</p>
      ) : (
        <ExportState data={status.data} />
      )}
      <div className="settings-account__actions">
        <Button
          variant="outline"
          loading={request.isPending}
          disabled={busy}
          onClick={() => request.mutate()}
        >
          {ACCOUNT_TEXTS.exportButton}
        </Button>
        <span className="tp-muted settings-hint">One export every {EXPORT_EVERY_HOURS} hours.</span>
      </div>
    </section>
  );
}

/** DELETE MY ACCOUNT: the password (or a mailed link), keep or delete my posts, then a final confirm. */
function DeleteSection() {
  const identities = useQuery(identitiesQuery);
  const remove = useDeleteAccount();
  const confirm = useConfirm();
  const [password, setPassword] = useState('');
  const [keepContent, setKeepContent] = useState<boolean | null>(null);
  const hasPassword = identities.data?.hasPassword ?? true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (keepContent === null) return;
    const confirmed = await confirm({
      title: ACCOUNT_TEXTS.confirmTitle,
      description: `${keepContent ? ACCOUNT_TEXTS.keepContent : ACCOUNT_TEXTS.deleteContent}. ${ACCOUNT_TEXTS.confirmBody}`,
      confirmLabel: ACCOUNT_TEXTS.deleteButton,
      destructive: true,
    });
    if (!confirmed) return;
    remove.mutate(hasPassword ? { password, keepContent } : { keepContent });
  };

  return (
    <section className="settings-account__section settings-account__danger" aria-labelledby="delete-title">
      <h2 id="delete-title" className="tp-label settings-account__title tp-danger">
        {ACCOUNT_TEXTS.deleteTitle}
      </h2>
      <p className="tp-muted settings-hint">{ACCOUNT_TEXTS.deleteHelp}</p>
      <form onSubmit={(event) => void submit(event)}>
        <FormFields disabled={remove.isPending}>
          <fieldset className="settings-account__choice">
            <legend className="tp-label">Your pastes and replies</legend>
            <label className="settings-account__radio">
              <input
                type="radio"
                name="keepContent"
                checked={keepContent === false}
                onChange={() => setKeepContent(false)}
              />{' '}
              {ACCOUNT_TEXTS.deleteContent}
            </label>
            <label className="settings-account__radio">
              <input
                type="radio"
                name="keepContent"
                checked={keepContent === true}
                onChange={() => setKeepContent(true)}
              />{' '}
              {ACCOUNT_TEXTS.keepContent}
            </label>
            <p className="tp-muted settings-hint">{ACCOUNT_TEXTS.privateGo}</p>
          </fieldset>
          {hasPassword ? (
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          ) : (
            <p className="tp-prompt">{ACCOUNT_TEXTS.mailInstead}</p>
          )}
          <Button
            type="submit"
            variant="danger"
            loading={remove.isPending}
            disabled={keepContent === null || (hasPassword && password === '')}
          >
            {ACCOUNT_TEXTS.deleteButton}
          </Button>
        </FormFields>
      </form>
    </section>
  );
}

/** The mailed link's page (`?deleteToken=`): one button that confirms. */
function ConfirmLink({ token }: { token: string }) {
  const confirmDelete = useConfirmDelete();
  return (
    <Notice tone="error">
      <p className="settings-account__confirm-title">{ACCOUNT_TEXTS.confirmLinkTitle}</p>
      <p>{ACCOUNT_TEXTS.confirmBody}</p>
      <Button variant="danger" loading={confirmDelete.isPending} onClick={() => confirmDelete.mutate(token)}>
        {ACCOUNT_TEXTS.confirmLinkButton}
      </Button>
    </Notice>
  );
}

/** /settings/account: export my data, delete my account. */
export function AccountScreen() {
  const [params] = useSearchParams();
  const token = params.get('deleteToken');
  return (
    <Card
      titleLevel={1}
      title="YOUR DATA AND ACCOUNT"
      className="settings-narrow-page settings-account"
      actions={
        <Link to={PAGES.settings} className="tp-button tp-button--ghost tp-button--sm">
          PROFILE SETTINGS
        </Link>
      }
    >
      {token && <ConfirmLink token={token} />}
      <ExportSection />
      <DeleteSection />
    </Card>
  );
}
