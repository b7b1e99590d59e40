import {
  MODERATION_MESSAGES,
  SUSPENSION_CHOICES,
  SUSPENSION_REASON_MAX,
  type BanBody,
  type SilenceBody,
} from '@termpaste/contracts/moderation';
import { CharCount, Textarea, useConfirm, type Confirm } from '@termpaste/ui';
import { useId, useState } from 'react';

/** A ban (1 day … for ever) or a silence (read-only for days). */
export type SuspensionKind = 'ban' | 'silence';

/** What staff chose: days (null: for ever, a ban only) and the reason as typed. */
export interface SuspensionValue {
  days: number | null;
  reason: string;
}

/** The durations offered: every SUSPENSION_CHOICES for a ban, all but 'Forever' for a silence. */
export function suspensionChoices(kind: SuspensionKind) {
  return kind === 'ban' ? SUSPENSION_CHOICES : SUSPENSION_CHOICES.filter((choice) => choice.days !== null);
}

/** The first choice: for ever for a ban (the spec's ban), a day for a silence. */
export function defaultSuspension(kind: SuspensionKind): SuspensionValue {
  return { days: kind === 'ban' ? null : 1, reason: '' };
}

/** What the server would refuse, said before sending: a silence needs a reason; a reason has a length. */
export function suspensionProblem(kind: SuspensionKind, value: SuspensionValue): string | null {
  const reason = value.reason.trim();
  if (kind === 'silence' && reason === '') return MODERATION_MESSAGES.reasonRequired;
  if (reason.length > SUSPENSION_REASON_MAX) return MODERATION_MESSAGES.reasonTooLong;
  if (kind === 'silence' && value.days === null) return MODERATION_MESSAGES.silenceNeedsDays;
  return null;
}

/** The ban's body: nothing at all for a ban for ever without a reason (the spec's empty payload). */
export function banBody(value: SuspensionValue): BanBody | undefined {
  const reason = value.reason.trim();
  const body: BanBody = {
    ...(value.days !== null ? { days: value.days } : {}),
    ...(reason ? { reason } : {}),
  };
  return Object.keys(body).length ? body : undefined;
}

export function silenceBody(value: SuspensionValue): SilenceBody {
  return { days: value.days ?? 1, reason: value.reason.trim() };
}

/** "1 day", "Forever": how a duration reads. */
export function durationLabel(days: number | null): string {
  return (
    SUSPENSION_CHOICES.find((choice) => choice.days === days)?.label ?? `${days} day${days === 1 ? '' : 's'}`
  );
}

/** A ban's or silence's end as the server words it: `2026-05-01 14:00 UTC`. */
export function untilLabel(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export interface SuspensionFieldsProps {
  kind: SuspensionKind;
  value: SuspensionValue;
  onChange: (value: SuspensionValue) => void;
  /** Shown under the reason (aria-invalid on it). */
  error?: string | null;
  disabled?: boolean;
}

/**
 * The duration (SUSPENSION_CHOICES) and the reason of a ban or a silence: the users table's BAN and
 * SILENCE prompts, and the review queue's suspension of an author. Controlled; inline elements only, so
 * it fits in a confirm prompt's description.
 */
export function SuspensionFields({ kind, value, onChange, error, disabled }: SuspensionFieldsProps) {
  const id = useId();
  const choices = suspensionChoices(kind);
  return (
    <span className="adm-suspension">
      <span className="adm-suspension__field">
        <label className="tp-label" htmlFor={`${id}-days`}>
          Duration
        </label>
        <select
          id={`${id}-days`}
          className="tp-input adm-suspension__days"
          value={value.days === null ? 'forever' : String(value.days)}
          disabled={disabled}
          onChange={(event) =>
            onChange({
              ...value,
              days: event.target.value === 'forever' ? null : Number(event.target.value),
            })
          }
        >
          {choices.map((choice) => (
            <option key={choice.label} value={choice.days === null ? 'forever' : String(choice.days)}>
              {choice.label}
            </option>
          ))}
        </select>
      </span>
      <span className="adm-suspension__field">
        <span className="tp-label-row">
          <label className="tp-label" htmlFor={`${id}-reason`}>
            Reason{kind === 'ban' ? ' (optional)' : ''}
          </label>
          <CharCount length={value.reason.length} max={SUSPENSION_REASON_MAX} />
        </span>
        <Textarea
          id={`${id}-reason`}
          className="adm-suspension__reason"
          rows={3}
          value={value.reason}
          disabled={disabled}
          placeholder="Told to the member by mail, and when they sign in or write"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange({ ...value, reason: event.target.value })}
        />
      </span>
      {error && (
        <span id={`${id}-error`} role="alert" className="adm-error adm-suspension__error">
          {error}
        </span>
      )}
    </span>
  );
}

/** SuspensionFields keeping its own state, written through to `draft` (a confirm prompt's description). */
function DraftFields({
  kind,
  draft,
  error,
}: {
  kind: SuspensionKind;
  draft: SuspensionValue;
  error: string | null;
}) {
  const [value, setValue] = useState<SuspensionValue>(() => ({ ...draft }));
  return (
    <SuspensionFields
      kind={kind}
      value={value}
      error={error}
      onChange={(next) => {
        Object.assign(draft, next);
        setValue(next);
      }}
    />
  );
}

const PROMPTS: Record<SuspensionKind, { title: (name: string) => string; text: string; label: string }> = {
  ban: {
    title: (name) => `Ban ${name}?`,
    text: 'Their sessions end at once and they cannot sign in until the ban ends. They are mailed the duration and the reason.',
    label: 'BAN',
  },
  silence: {
    title: (name) => `Silence ${name}?`,
    text: 'They can still sign in, read and write to support, nothing else, until it ends. They are mailed the duration and the reason.',
    label: 'SILENCE',
  },
};

/**
 * Asks for a ban's or a silence's duration and reason in the app's confirm prompt: the terms, or null
 * when cancelled. A reason the server would refuse brings the prompt back with the problem under it.
 */
export async function askSuspension(
  confirm: Confirm,
  kind: SuspensionKind,
  username: string,
): Promise<SuspensionValue | null> {
  const draft = defaultSuspension(kind);
  const prompt = PROMPTS[kind];
  let error: string | null = null;
  for (let attempt = 0; ; attempt++) {
    const confirmed = await confirm({
      title: prompt.title(username),
      description: (
        <span className="adm-suspension-prompt">
          <span>{prompt.text}</span>
          <DraftFields key={attempt} kind={kind} draft={draft} error={error} />
        </span>
      ),
      confirmLabel: prompt.label,
      destructive: true,
    });
    if (!confirmed) return null;
    error = suspensionProblem(kind, draft);
    if (!error) return { ...draft, reason: draft.reason.trim() };
  }
}

/** askSuspension with the app's confirm prompt. */
export function useSuspensionPrompt(): (
  kind: SuspensionKind,
  username: string,
) => Promise<SuspensionValue | null> {
  const confirm = useConfirm();
  return (kind, username) => askSuspension(confirm, kind, username);
}
