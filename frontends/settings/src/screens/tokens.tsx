import { API, PAGES, TEXTS } from '@termpaste/contracts';
import {
  createTokenSchema,
  TOKEN_EXPIRY_DAYS_DEFAULT,
  TOKEN_NAME_MAX,
  TOKEN_SCOPE_DESCRIPTIONS,
  TOKEN_SCOPES,
  TOKENS_PER_USER_MAX,
  type AccessToken,
  type CreatedAccessToken,
  type TokenScope,
} from '@termpaste/contracts/tokens';
import {
  Badge,
  Button,
  Card,
  CharCount,
  CopyButton,
  FormActions,
  Input,
  Label,
  LabelRow,
  relativeTime,
  shortDate,
  Spinner,
  toast,
  useConfirm,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { TOKEN_TEXTS, tokensQuery, useCreateToken, useRevokeToken } from '../api/tokens';
import { DateEntry } from '../components/date-entry';

/** The expiry choices: 30 days by default, up to a year, or none (`null`). */
export const EXPIRY_CHOICES = [
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
  { value: 'never', label: 'No expiry', days: null },
] as const satisfies readonly { value: string; label: string; days: number | null }[];

type ExpiryValue = (typeof EXPIRY_CHOICES)[number]['value'];

/** The scopes a new token starts with: pasting and public reads; private reads only when asked for. */
const DEFAULT_SCOPES: readonly TokenScope[] = ['pastes:write', 'read'];

/** The `curl` line that tries a new token: a file's bytes as the paste, the URL quoted for any shell. */
export function curlLine(token: string, origin: string): string {
  return `curl --data-binary @file.txt -H 'Authorization: Bearer ${token}' '${origin}${API.pastes}?title=file.txt'`;
}

/** A token that expired is still listed until revoked, but no longer counts as live. */
const isExpired = (token: AccessToken, now: number) =>
  token.expiresAt !== null && new Date(token.expiresAt).getTime() <= now;

/** A token that works: neither revoked (listed 30 days after, with why) nor expired. */
const isLive = (token: AccessToken, now: number) => token.revokedAt === null && !isExpired(token, now);

/** The token just made, shown once: its secret with COPY, and the curl line to try it. */
function NewToken({ created, onDone }: { created: CreatedAccessToken; onDone: () => void }) {
  const box = useRef<HTMLElement>(null);
  const noteId = useId();
  const curl = curlLine(created.token, window.location.origin);
  // Keyboard and screen reader users land on the secret they must copy now.
  useEffect(() => box.current?.focus(), [created.token]);
  return (
    <section
      ref={box}
      tabIndex={-1}
      className="settings-token-new"
      aria-label="New token"
      aria-describedby={noteId}
    >
      <p className="settings-token-new__head">
        <span className="tp-muted">token created:</span> <strong>{created.name}</strong>
      </p>
      <div className="settings-token-new__row">
        <code className="settings-token-new__secret" data-testid="new-token">
          {created.token}
        </code>
        <CopyButton text={created.token} variant="outline" />
      </div>
      <p id={noteId} className="tp-warning settings-token-new__note">
        This token will not be shown again. Copy it now and keep it somewhere safe.
      </p>
      <p className="tp-muted settings-token-new__try">Try it: paste a file from your terminal</p>
      <div className="settings-token-new__row">
        <pre className="settings-token-new__curl" data-testid="curl-line">
          <code>
            <span className="tp-prompt" aria-hidden="true" />
            {curl}
          </code>
        </pre>
        <CopyButton text={curl} label="COPY CURL" />
      </div>
      <FormActions>
        <Button variant="outline" size="sm" onClick={onDone}>
          DONE
        </Button>
      </FormActions>
    </section>
  );
}

/** The create form: a name, an expiry and the scopes; checked with the contracts' schema first. */
function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedAccessToken) => void }) {
  const ids = { name: useId(), nameError: useId(), expiry: useId(), scopesError: useId() };
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<ExpiryValue>(String(TOKEN_EXPIRY_DAYS_DEFAULT) as ExpiryValue);
  const [scopes, setScopes] = useState<TokenScope[]>([...DEFAULT_SCOPES]);
  const [problem, setProblem] = useState<{ field: 'name' | 'scopes'; message: string } | null>(null);
  const create = useCreateToken();

  const toggleScope = (scope: TokenScope, on: boolean) =>
    setScopes((current) => TOKEN_SCOPES.filter((s) => (s === scope ? on : current.includes(s))));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name,
      scopes,
      expiresInDays: EXPIRY_CHOICES.find((choice) => choice.value === expiry)!.days,
    };
    const checked = createTokenSchema.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const field = issue.path[0] === 'scopes' ? 'scopes' : 'name';
      setProblem({ field, message: issue.message });
      toast({ title: TEXTS.validationTitle, description: issue.message, variant: 'destructive' });
      return;
    }
    setProblem(null);
    create.mutate(
      { ...body, name: checked.data.name },
      {
        onSuccess: (created) => {
          setName('');
          onCreated(created);
        },
      },
    );
  };

  const nameProblem = problem?.field === 'name' ? problem.message : null;
  const scopesProblem = problem?.field === 'scopes' ? problem.message : null;

  return (
    <form onSubmit={submit} noValidate aria-label="Create token" className="settings-token-form">
      <fieldset className="tp-form-fields" disabled={create.isPending}>
        <div className="settings-token-form__grid">
          <div className="tp-field">
            <LabelRow>
              <Label htmlFor={ids.name}>Token name</Label>
              <CharCount length={name.length} max={TOKEN_NAME_MAX} testId="token-name-counter" />
            </LabelRow>
            <Input
              id={ids.name}
              value={name}
              maxLength={TOKEN_NAME_MAX}
              placeholder="laptop, CI, build server"
              autoComplete="off"
              aria-invalid={nameProblem ? true : undefined}
              aria-describedby={nameProblem ? ids.nameError : undefined}
              onChange={(event) => {
                setName(event.target.value);
                if (problem?.field === 'name') setProblem(null);
              }}
            />
            {nameProblem && (
              <p id={ids.nameError} className="tp-danger settings-hint">
                {nameProblem}
              </p>
            )}
          </div>
          <div className="tp-field">
            <Label htmlFor={ids.expiry}>Expires after</Label>
            <select
              id={ids.expiry}
              className="tp-input settings-select"
              value={expiry}
              onChange={(event) => setExpiry(event.target.value as ExpiryValue)}
            >
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset
          className="settings-scopes"
          aria-invalid={scopesProblem ? true : undefined}
          aria-describedby={scopesProblem ? ids.scopesError : undefined}
        >
          <legend className="tp-label">Scopes</legend>
          {TOKEN_SCOPES.map((scope) => (
            <label key={scope} className="settings-scope">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) => {
                  toggleScope(scope, event.target.checked);
                  if (problem?.field === 'scopes') setProblem(null);
                }}
              />
              <code>{scope}</code>
              <span className="tp-muted">{TOKEN_SCOPE_DESCRIPTIONS[scope]}</span>
            </label>
          ))}
          {scopesProblem && (
            <p id={ids.scopesError} className="tp-danger settings-hint">
              {scopesProblem}
            </p>
          )}
        </fieldset>
        <FormActions>
          <Button type="submit" loading={create.isPending}>
            {create.isPending ? 'CREATING...' : 'CREATE TOKEN'}
          </Button>
        </FormActions>
      </fieldset>
    </form>
  );
}

/**
 * One listed token: its name, scopes, dates and REVOKE (after a confirmation); a revoked one says when
 * and why, and has nothing left to revoke.
 */
function TokenItem({ token, now }: { token: AccessToken; now: number }) {
  const confirm = useConfirm();
  const revoke = useRevokeToken();
  const revoked = token.revokedAt !== null;
  const expired = !revoked && isExpired(token, now);

  const onRevoke = async () => {
    const confirmed = await confirm({
      title: 'Revoke this token?',
      description: `"${token.name}" stops working at once, everywhere it is used. This cannot be undone.`,
      confirmLabel: 'REVOKE',
      destructive: true,
    });
    if (confirmed) revoke.mutate(token);
  };

  return (
    <li
      className="settings-token"
      aria-label={token.name}
      data-expired={expired || undefined}
      data-revoked={revoked || undefined}
    >
      <div className="settings-token__head">
        <strong className="settings-token__name">{token.name}</strong>
        <span className="settings-token__scopes" aria-label="Scopes">
          {token.scopes.map((scope) => (
            <Badge key={scope} variant="accent" className="settings-token__scope">
              {scope}
            </Badge>
          ))}
        </span>
        {expired && <Badge variant="danger">expired</Badge>}
        {revoked && (
          <span className="settings-token__revoked" data-testid="token-revoked">
            <Badge variant="danger">revoked</Badge>
            <span className="tp-muted">{token.revokedReason}</span>
          </span>
        )}
      </div>
      <dl className="settings-token__dates">
        <DateEntry term="Created" at={token.createdAt}>
          {shortDate(token.createdAt)}
        </DateEntry>
        <DateEntry term="Last used" at={token.lastUsedAt}>
          {relativeTime(token.lastUsedAt)}
        </DateEntry>
        {revoked ? (
          <DateEntry term="Revoked" at={token.revokedAt}>
            {shortDate(token.revokedAt!)}
          </DateEntry>
        ) : (
          <DateEntry term="Expires" at={token.expiresAt}>
            {token.expiresAt ? shortDate(token.expiresAt) : 'never'}
          </DateEntry>
        )}
      </dl>
      {!revoked && (
        <Button
          variant="danger"
          size="sm"
          className="settings-token__revoke"
          loading={revoke.isPending}
          disabled={revoke.isSuccess}
          aria-label={`REVOKE ${token.name}`}
          onClick={() => void onRevoke()}
        >
          REVOKE
        </Button>
      )}
    </li>
  );
}

/** The member's tokens, newest first; revoked ones for 30 days, marked so. */
function TokenList() {
  const tokens = useQuery(tokensQuery);
  const now = Date.now();
  const live = tokens.data?.filter((token) => isLive(token, now)).length;
  return (
    <Card
      title="YOUR TOKENS"
      className="settings-page"
      actions={
        live !== undefined && (
          <span className="tp-muted settings-token-count" data-testid="token-count">
            {live}/{TOKENS_PER_USER_MAX} active
          </span>
        )
      }
    >
      {tokens.isPending ? (
        <Spinner label="Loading tokens..." />
      ) : tokens.isError ? (
        <p className="tp-danger">{TOKEN_TEXTS.loadFailed}</p>
      ) : tokens.data.length === 0 ? (
        <p className="tp-muted">No tokens yet. Create one above to paste from your terminal.</p>
      ) : (
        <ul className="settings-tokens" aria-label="Tokens">
          {tokens.data.map((token) => (
            <TokenItem key={token.id} token={token} now={now} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** /settings/tokens: make a token (shown once, with COPY and a curl line), list and REVOKE them. */
export function TokensScreen() {
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const nameField = useRef<HTMLDivElement>(null);
  const done = () => {
    setCreated(null);
    nameField.current?.querySelector('input')?.focus();
  };
  return (
    <div className="settings-stack">
      <Card
        titleLevel={1}
        title="ACCESS TOKENS"
        className="settings-page"
        actions={
          <Link to={PAGES.settings} className="tp-button tp-button--ghost tp-button--sm">
            PROFILE SETTINGS
          </Link>
        }
      >
        <p className="tp-prompt settings-intro">
          Paste from a terminal with <code>curl</code> or the <code>termpaste</code> CLI: a token acts as you,
          only within its scopes. It never opens the admin pages, your password, your e-mail or your tokens.
        </p>
        {created && <NewToken created={created} onDone={done} />}
        <div ref={nameField}>
          <CreateTokenForm onCreated={setCreated} />
        </div>
      </Card>
      <TokenList />
    </div>
  );
}
