import { API, PAGES } from '@termpaste/contracts';
import {
  SSO_MESSAGES,
  SSO_SCREEN_TEXTS,
  ssoErrorMessage,
  type Identities,
  type Identity,
} from '@termpaste/contracts/sso';
import {
  Badge,
  Button,
  Card,
  Notice,
  relativeTime,
  shortDate,
  Spinner,
  useConfirm,
  useSignInOptions,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { identitiesQuery, useUnlinkIdentity } from '../api/sso';
import { DateEntry } from '../components/date-entry';

/** Where LINK starts: a top-level navigation; the server comes back to this page with ?linked= or ?sso_error=. */
export const linkHref = (provider: string) => `${API.ssoStart(provider)}?intent=link`;

/** One linked identity: the provider, its e-mail, when linked and last used, and UNLINK after a confirmation. */
function IdentityItem({ identity }: { identity: Identity }) {
  const confirm = useConfirm();
  const unlink = useUnlinkIdentity();

  const onUnlink = async () => {
    const confirmed = await confirm({
      title: `Unlink ${identity.providerName}?`,
      description: `You will no longer sign in with ${identity.providerName}${
        identity.email ? ` (${identity.email})` : ''
      }. You can link it again later.`,
      confirmLabel: 'UNLINK',
      destructive: true,
    });
    if (confirmed) unlink.mutate(identity);
  };

  return (
    <li className="settings-identity" aria-label={identity.providerName}>
      <div className="settings-identity__head">
        <strong className="settings-identity__provider">{identity.providerName}</strong>
        <span className="settings-identity__email">
          {identity.email ?? <span className="tp-muted">no e-mail shared</span>}
        </span>
      </div>
      <dl className="settings-identity__dates">
        <DateEntry term="Linked" at={identity.linkedAt}>
          {shortDate(identity.linkedAt)}
        </DateEntry>
        <DateEntry term="Last used" at={identity.lastUsedAt}>
          {relativeTime(identity.lastUsedAt)}
        </DateEntry>
      </dl>
      <Button
        variant="danger"
        size="sm"
        className="settings-identity__unlink"
        loading={unlink.isPending}
        disabled={unlink.isSuccess}
        aria-label={`UNLINK ${identity.providerName}`}
        onClick={() => void onUnlink()}
      >
        UNLINK
      </Button>
    </li>
  );
}

/** Whether the account also has a password, and where to change or set it (nowhere under LOCAL_LOGIN=off). */
function PasswordLine({ hasPassword }: { hasPassword: boolean }) {
  const { localLogin } = useSignInOptions();
  return (
    <section className="settings-accounts__password" aria-label="Password">
      <p className="settings-accounts__password-head">
        <span className="tp-label">Password</span>
        {hasPassword ? <Badge variant="accent">set</Badge> : <Badge variant="muted">not set</Badge>}
        {hasPassword && localLogin && (
          <Link to={PAGES.settingsPassword} className="tp-button tp-button--ghost tp-button--sm">
            CHANGE PASSWORD
          </Link>
        )}
      </p>
      <p className="tp-muted settings-hint">
        {!localLogin
          ? SSO_MESSAGES.localLoginOff
          : hasPassword
            ? SSO_SCREEN_TEXTS.passwordSet
            : SSO_SCREEN_TEXTS.passwordNotSet}
      </p>
    </section>
  );
}

/** What the server came back with after a LINK: `?linked=<provider>` or `?sso_error=<code>`. */
function Outcome({ data }: { data: Identities | undefined }) {
  const [params] = useSearchParams();
  const error = ssoErrorMessage(params.get('sso_error'));
  const linked = params.get('linked');
  if (error) {
    return <Notice tone="error">{error}</Notice>;
  }
  if (!linked) return null;
  const name = data?.identities.find((identity) => identity.provider === linked)?.providerName ?? linked;
  return <Notice tone="ok">{SSO_MESSAGES.linked(name)}</Notice>;
}

function AccountsBody({ data }: { data: Identities }) {
  const nothing = data.identities.length === 0 && data.available.length === 0;
  return (
    <>
      {nothing ? (
        <p className="tp-muted">{SSO_SCREEN_TEXTS.noProviders}</p>
      ) : data.identities.length === 0 ? (
        <p className="tp-muted">{SSO_SCREEN_TEXTS.noIdentities}</p>
      ) : (
        <ul className="settings-identities" aria-label="Linked accounts">
          {data.identities.map((identity) => (
            <IdentityItem key={identity.id} identity={identity} />
          ))}
        </ul>
      )}
      {data.available.length > 0 && (
        <section className="settings-accounts__link" aria-label="Link a provider">
          <h3 className="tp-label settings-accounts__subhead">Link a provider</h3>
          <ul className="settings-accounts__providers">
            {data.available.map((provider) => (
              <li key={provider.id}>
                <a
                  href={linkHref(provider.id)}
                  className="tp-button tp-button--outline tp-button--md settings-accounts__provider"
                >
                  <span aria-hidden="true" className="settings-accounts__plus">
                    +
                  </span>
                  LINK <span className="settings-accounts__name">{provider.name}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <PasswordLine hasPassword={data.hasPassword} />
    </>
  );
}

/**
 * /settings/accounts: the linked sign-in providers (UNLINK), the others (LINK), and whether there is a
 * password.
 */
export function AccountsScreen() {
  const identities = useQuery(identitiesQuery);
  return (
    <Card
      titleLevel={1}
      title="LINKED ACCOUNTS"
      className="settings-narrow-page settings-accounts"
      actions={
        <Link to={PAGES.settings} className="tp-button tp-button--ghost tp-button--sm">
          PROFILE SETTINGS
        </Link>
      }
    >
      <p className="tp-prompt settings-intro">
        Sign in with any provider linked here. Your account always keeps at least one way to sign in.
      </p>
      <Outcome data={identities.data} />
      {identities.isPending ? (
        <Spinner label="Loading linked accounts..." />
      ) : identities.isError ? (
        <p className="tp-danger">{SSO_SCREEN_TEXTS.identitiesLoadFailed}</p>
      ) : (
        <AccountsBody data={identities.data} />
      )}
    </Card>
  );
}
