import { API, PAGES } from '@termpaste/contracts';
import {
  addSshKeySchema,
  SIGNING_NAMESPACE,
  SSH_KEY_TITLE_MAX,
  SSH_KEYS_PER_USER_MAX,
  type SshKey,
} from '@termpaste/contracts';
import {
  Badge,
  Button,
  Card,
  CharCount,
  CopyButton,
  errorMessage,
  FormActions,
  Input,
  Label,
  LabelRow,
  shortDate,
  Spinner,
  Textarea,
  useConfirm,
  useCurrentUser,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { SSH_KEY_TEXTS, sshKeysQuery, useAddSshKey, useDeleteSshKey } from '../api/ssh-keys';
import './ssh-keys.css';

/** The form: one public key line and an optional title; the server reads the key and says what is wrong. */
function AddKeyForm() {
  const ids = { key: useId(), title: useId(), error: useId() };
  const [key, setKey] = useState('');
  const [title, setTitle] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddSshKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = addSshKeySchema.safeParse({ key, title: title || undefined });
    if (!checked.success) {
      setProblem(checked.error.issues[0]!.message);
      return;
    }
    setProblem(null);
    add.mutate(checked.data, {
      onSuccess: () => {
        setKey('');
        setTitle('');
      },
      // The server's reason (a private key, a bad blob…) under the field too, not only in the toast.
      onError: (error) => setProblem(errorMessage(error, SSH_KEY_TEXTS.addFailed)),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add SSH key" className="settings-ssh-form">
      <fieldset className="tp-form-fields" disabled={add.isPending}>
        <div className="tp-field">
          <Label htmlFor={ids.key}>Public key</Label>
          <Textarea
            id={ids.key}
            value={key}
            rows={3}
            spellCheck={false}
            autoComplete="off"
            className="settings-ssh-form__key"
            placeholder="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA… you@laptop"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? ids.error : undefined}
            onChange={(event) => {
              setKey(event.target.value);
              setProblem(null);
            }}
          />
          {problem && (
            <p id={ids.error} className="tp-danger settings-hint" data-testid="ssh-key-problem">
              {problem}
            </p>
          )}
        </div>
        <div className="tp-field">
          <LabelRow>
            <Label htmlFor={ids.title}>Title (optional)</Label>
            <CharCount length={title.length} max={SSH_KEY_TITLE_MAX} />
          </LabelRow>
          <Input
            id={ids.title}
            value={title}
            maxLength={SSH_KEY_TITLE_MAX}
            placeholder="laptop, work desktop (default: the key's comment)"
            autoComplete="off"
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <FormActions>
          <Button type="submit" loading={add.isPending}>
            {add.isPending ? 'ADDING...' : 'ADD KEY'}
          </Button>
        </FormActions>
      </fieldset>
    </form>
  );
}

/** One key: its title, type, fingerprint, when it was added, and DELETE (after a confirmation). */
function KeyItem({ sshKey }: { sshKey: SshKey }) {
  const confirm = useConfirm();
  const remove = useDeleteSshKey();
  const onDelete = async () => {
    const confirmed = await confirm({
      title: 'Delete this SSH key?',
      description: `Pastes you signed with "${sshKey.title}" will no longer show VERIFIED (until you add it again).`,
      confirmLabel: 'DELETE',
      destructive: true,
    });
    if (confirmed) remove.mutate(sshKey);
  };
  return (
    <li className="settings-ssh-key" aria-label={sshKey.title}>
      <div className="settings-ssh-key__head">
        <strong className="settings-ssh-key__title">{sshKey.title}</strong>
        <Badge variant="accent" className="settings-ssh-key__type">
          {sshKey.type}
        </Badge>
      </div>
      <code className="settings-ssh-key__fingerprint" data-testid="ssh-key-fingerprint">
        {sshKey.fingerprint}
      </code>
      <span className="tp-muted settings-ssh-key__added">added {shortDate(sshKey.createdAt)}</span>
      <Button
        variant="danger"
        size="sm"
        className="settings-ssh-key__delete"
        loading={remove.isPending}
        disabled={remove.isSuccess}
        aria-label={`DELETE ${sshKey.title}`}
        onClick={() => void onDelete()}
      >
        DELETE
      </Button>
    </li>
  );
}

/** How a paste is signed, and how a reader checks it with OpenSSH alone. */
function HowTo({ userId, username }: { userId: number; username: string }) {
  const origin = window.location.origin;
  const sign = `termpaste install.sh --sign --key ~/.ssh/id_ed25519`;
  const check =
    `curl -s ${origin}${API.userPublicKeys(userId)} | sed 's/^/${username} /' > allowed_signers\n` +
    `ssh-keygen -Y verify -f allowed_signers -I ${username} -n ${SIGNING_NAMESPACE} \\\n` +
    `  -s <(curl -s ${origin}${API.threadRawSignature('ID')}) < <(curl -s ${origin}${API.threadRaw('ID')})`;
  return (
    <div className="settings-ssh-howto">
      <p className="tp-muted">Sign a paste from your terminal:</p>
      <div className="settings-ssh-howto__row">
        <pre className="settings-ssh-howto__code">
          <code>{sign}</code>
        </pre>
        <CopyButton text={sign} label="COPY" />
      </div>
      <p className="tp-muted">Anyone can check a signed paste of yours with OpenSSH:</p>
      <div className="settings-ssh-howto__row">
        <pre className="settings-ssh-howto__code" data-testid="verify-line">
          <code>{check}</code>
        </pre>
        <CopyButton text={check} label="COPY" />
      </div>
    </div>
  );
}

/** The member's keys, oldest first, with their count. */
function KeyList() {
  const keys = useQuery(sshKeysQuery);
  return (
    <Card
      title="YOUR SSH KEYS"
      className="settings-page"
      actions={
        keys.data && (
          <span className="tp-muted settings-token-count" data-testid="ssh-key-count">
            {keys.data.length}/{SSH_KEYS_PER_USER_MAX}
          </span>
        )
      }
    >
      {keys.isPending ? (
        <Spinner label="Loading keys..." />
      ) : keys.isError ? (
        <p className="tp-danger">{SSH_KEY_TEXTS.loadFailed}</p>
      ) : keys.data.length === 0 ? (
        <p className="tp-muted">No SSH keys yet. Add your public key above to sign pastes.</p>
      ) : (
        <ul className="settings-ssh-keys" aria-label="SSH keys">
          {keys.data.map((key) => (
            <KeyItem key={key.id} sshKey={key} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** /settings/keys: add an SSH public key (pastes signed with it show VERIFIED), list and delete them. */
export function SshKeysScreen() {
  const { user } = useCurrentUser();
  return (
    <div className="settings-stack">
      <Card
        titleLevel={1}
        title="SSH KEYS"
        className="settings-page"
        actions={
          <Link to={PAGES.settings} className="tp-button tp-button--ghost tp-button--sm">
            PROFILE SETTINGS
          </Link>
        }
      >
        <p className="tp-prompt settings-intro">
          Sign what you paste with your SSH key (<code>ssh-keygen -Y sign -n {SIGNING_NAMESPACE}</code>, or{' '}
          <code>termpaste --sign</code>): readers then see VERIFIED and the key&apos;s fingerprint. Your
          public keys are public, like GitHub&apos;s <code>.keys</code>.
        </p>
        <AddKeyForm />
        {user && <HowTo userId={user.id} username={user.username} />}
      </Card>
      <KeyList />
    </div>
  );
}
