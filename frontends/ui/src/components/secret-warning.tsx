import type { SecretFindingsBody } from '@termpaste/contracts';
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { SecretWarningDismissed, secretFindingsOf } from '../api/secrets.js';

type DialogModule = typeof import('./secret-warning-dialog.js');
let dialogModule: DialogModule | undefined;
let dialogLoading: Promise<DialogModule> | undefined;

/**
 * The dialog's code (Radix's dialog under it) is no part of a page that sends no text: it is fetched when
 * a text is first sent through the guard, alongside the request, so it is there when a 422 comes back.
 */
function loadDialog(): Promise<DialogModule> {
  dialogLoading ??= import('./secret-warning-dialog.js').then(
    (module) => (dialogModule = module),
    (error: unknown) => {
      dialogLoading = undefined; // try again with the next text
      throw error;
    },
  );
  return dialogLoading;
}

/**
 * Sends a text, and when the server finds a secret in it (422 with findings) asks the member: PUBLISH
 * ANYWAY sends it again with `allowSecrets` (`send(true)`), EDIT rejects with SecretWarningDismissed and
 * puts the focus back in the form's text. Any other error is thrown as it came.
 */
export type SecretGuard = <T>(send: (allowSecrets: boolean) => Promise<T>) => Promise<T>;

const SecretWarningContext = createContext<SecretGuard | null>(null);

interface Pending {
  body: SecretFindingsBody;
  resolve: (publish: boolean) => void;
  /** The text to edit: the form's textarea (of the button that sent it), else what had the focus. */
  focusTarget: HTMLElement | null;
}

function textToEdit(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement)) return null;
  return active.closest('form')?.querySelector<HTMLElement>('textarea') ?? active;
}

/** Hosts the one secret warning dialog of the app (UiProvider includes it). */
export function SecretWarningProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const pendingRef = useRef<Pending | null>(null);
  const editedRef = useRef(false);

  const settle = useCallback((publish: boolean) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    editedRef.current = !publish;
    setOpen(false);
    current?.resolve(publish);
  }, []);

  const ask = useCallback(
    (body: SecretFindingsBody, focusTarget: HTMLElement | null) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        const next = { body, resolve, focusTarget };
        pendingRef.current = next;
        setPending(next);
        setOpen(true);
      }),
    [],
  );

  const guard = useCallback<SecretGuard>(
    async (send) => {
      // Read now: a form disables its fields while it sends, and a disabled button loses the focus.
      const focusTarget = textToEdit(document.activeElement);
      const dialog = loadDialog();
      dialog.catch(() => undefined); // awaited only if the server finds a secret
      try {
        return await send(false);
      } catch (error) {
        const body = secretFindingsOf(error);
        if (!body) throw error;
        // A dialog that cannot be fetched (the network went away): the form shows the server's refusal.
        await dialog.catch(() => {
          throw error;
        });
        if (!(await ask(body, focusTarget))) throw new SecretWarningDismissed();
        return send(true);
      }
    },
    [ask],
  );

  const focusText = useCallback(() => {
    const target = pending?.focusTarget;
    if (!target || !editedRef.current) return;
    // The form re-enables its fields once the call has failed, a render or two later: until then a
    // disabled text takes no focus, so try again a few times.
    let tries = 0;
    const attempt = () => {
      target.focus();
      tries += 1;
      if (document.activeElement !== target && tries < 20) setTimeout(attempt, 25);
    };
    setTimeout(attempt, 0);
  }, [pending]);

  return (
    <SecretWarningContext.Provider value={guard}>
      {children}
      {pending && dialogModule && (
        <dialogModule.SecretWarningDialog
          open={open}
          body={pending.body}
          onEdit={() => settle(false)}
          onPublish={() => settle(true)}
          onCloseFocus={focusText}
        />
      )}
    </SecretWarningContext.Provider>
  );
}

/** Sends through the warning when inside UiProvider; outside it (a bare test), just once. */
const sendOnce: SecretGuard = (send) => send(false);

/**
 * `const guard = useSecretWarning();` then in a mutation: `guard((allowSecrets) => sendJson('POST',
 * API.threads, createdSchema, withAllowSecrets(body, allowSecrets)))`.
 */
export function useSecretWarning(): SecretGuard {
  return useContext(SecretWarningContext) ?? sendOnce;
}
