import {
  FLAG_REASON_LABELS,
  FLAG_REASONS,
  FLAG_TARGETS,
  REVIEW_KINDS,
  type FlagReason,
  type FlagTarget,
  type ReviewDecision,
  type ReviewDecisionBody,
  type ReviewItem,
  type ReviewKind,
} from '@termpaste/contracts/moderation';
import {
  Button,
  hasCommandModifier,
  isInsideWidget,
  isTypingTarget,
  ListFooter,
  Modal,
  Skeleton,
} from '@termpaste/ui';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Keyboard } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { reviewQuery, useDecide, type ReviewFilter } from '../api/review';
import { AgreeDialog } from './agree-dialog';
import { DECISION_KEYS, decisionsOf, ReviewCard, TARGET_LABELS } from './review-item';

/** The queue's keys, as `?` lists them. */
export const REVIEW_SHORTCUTS: ReadonlyArray<{ keys: string[]; what: string }> = [
  { keys: ['j', '↓'], what: 'Next item' },
  { keys: ['k', '↑'], what: 'Previous item' },
  { keys: [DECISION_KEYS.agree], what: 'Agree (choose: keep hidden or delete, suspend or silence)' },
  { keys: [DECISION_KEYS.disagree], what: 'Disagree: clear the flags and restore the item' },
  { keys: [DECISION_KEYS.ignore], what: 'Ignore: clear the flags, the item stays as it is' },
  { keys: [DECISION_KEYS.approve], what: 'Approve a held post (publish it)' },
  { keys: [DECISION_KEYS.reject], what: 'Reject a held post' },
  { keys: ['?'], what: 'Show these keys' },
];

const KEY_TO_DECISION = new Map<string, ReviewDecision>(
  Object.entries(DECISION_KEYS).map(([decision, key]) => [key, decision as ReviewDecision]),
);

const pick = <T extends string>(value: string | null, among: readonly T[]): T | '' =>
  among.includes(value as T) ? (value as T) : '';

/** The filters from the address: `?kind=flagged&reason=spam&type=paste` (anything else: all). */
export function filterOf(params: URLSearchParams): ReviewFilter {
  return {
    kind: pick<ReviewKind>(params.get('kind'), REVIEW_KINDS),
    reason: pick<FlagReason>(params.get('reason'), FLAG_REASONS),
    targetType: pick<FlagTarget>(params.get('type'), FLAG_TARGETS),
  };
}

function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="REVIEW KEYS" className="tp-shortcuts">
      <dl className="tp-shortcuts__list">
        {REVIEW_SHORTCUTS.map((shortcut) => (
          <div key={shortcut.what} className="tp-shortcuts__row">
            <dt className="tp-shortcuts__keys">
              {shortcut.keys.map((key, index) => (
                <span key={key}>
                  {index > 0 && <span className="tp-shortcuts__sep"> or </span>}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd className="tp-shortcuts__what">{shortcut.what}</dd>
          </div>
        ))}
      </dl>
      <p className="adm-muted adm-review__keys-note">Keys do nothing while you type in a field.</p>
      <div className="tp-dialog__actions">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          CLOSE
        </Button>
      </div>
    </Modal>
  );
}

/**
 * /admin/review: open items, newest first, one card each with its decisions; filters kept in the address;
 * keys to move and decide (`?` lists them), quiet while a field has the focus.
 */
export function ReviewPanel() {
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const queue = useInfiniteQuery({ ...reviewQuery(filter), placeholderData: keepPreviousData });
  const decide = useDecide();
  // Decided here: out of the list at once, before the queue is read again.
  const [decided, setDecided] = useState<ReadonlySet<number>>(new Set());
  const items = queue.data?.pages.flatMap((page) => page.items).filter((item) => !decided.has(item.id));
  const [selected, setSelected] = useState(0);
  const [agreeing, setAgreeing] = useState<ReviewItem | null>(null);
  const [help, setHelp] = useState(false);
  const cards = useRef(new Map<number, HTMLElement>());
  const index = items && items.length > 0 ? Math.min(selected, items.length - 1) : -1;
  const current = index >= 0 ? items![index]! : null;

  const setFilter = (name: 'kind' | 'reason' | 'type', value: string) =>
    setParams(
      (before) => {
        const next = new URLSearchParams(before);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  const send = (item: ReviewItem, body: ReviewDecisionBody) => {
    setDecided((ids) => new Set(ids).add(item.id));
    decide.mutate(
      { item, body },
      {
        // Refused (decided meanwhile by other staff, say): back in the list until the queue is read again.
        onError: () =>
          setDecided((ids) => {
            const next = new Set(ids);
            next.delete(item.id);
            return next;
          }),
      },
    );
  };

  const onDecide = (item: ReviewItem, decision: ReviewDecision) => {
    if (!decisionsOf(item).includes(decision)) return;
    if (decision === 'agree') setAgreeing(item);
    else send(item, { decision });
  };

  // The keys, read before the app's own shortcuts (j, k, r, ?), which a handled key does not reach.
  const keys = useRef({ items, index, current, onDecide, help, agreeing });
  useEffect(() => {
    keys.current = { items, index, current, onDecide, help, agreeing };
  });
  useEffect(() => {
    const move = (to: number) => {
      const list = keys.current.items ?? [];
      if (list.length === 0) return;
      const next = Math.max(0, Math.min(list.length - 1, to));
      setSelected(next);
      const card = cards.current.get(list[next]!.id);
      card?.focus({ preventScroll: true });
      card?.scrollIntoView?.({ block: 'nearest' });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || hasCommandModifier(event)) return;
      if (isTypingTarget(event.target) || isInsideWidget(event.target)) return;
      const { index: at, current: item, onDecide: act, help: helpOpen, agreeing: open } = keys.current;
      if (helpOpen || open) return;
      let handled = true;
      if (event.key === 'j' || event.key === 'ArrowDown') move(at + 1);
      else if (event.key === 'k' || event.key === 'ArrowUp') move(at - 1);
      else if (event.key === '?') setHelp(true);
      else {
        const decision = KEY_TO_DECISION.get(event.key);
        if (decision && item && decisionsOf(item).includes(decision)) act(item, decision);
        else handled = false;
      }
      if (handled) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);

  const filtered = filter.kind !== '' || filter.reason !== '' || filter.targetType !== '';
  return (
    <div className="adm-panel">
      <div className="adm-review-bar">
        <div className="adm-filters" role="group" aria-label="Filter the queue">
          <select
            className="tp-input adm-select"
            aria-label="Filter by kind"
            value={filter.kind}
            onChange={(event) => setFilter('kind', event.target.value)}
          >
            <option value="">Flagged and held</option>
            <option value="flagged">Flagged</option>
            <option value="held">Held for approval</option>
          </select>
          <select
            className="tp-input adm-select"
            aria-label="Filter by reason"
            value={filter.reason}
            onChange={(event) => setFilter('reason', event.target.value)}
          >
            <option value="">Any reason</option>
            {FLAG_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {FLAG_REASON_LABELS[reason]}
              </option>
            ))}
          </select>
          <select
            className="tp-input adm-select"
            aria-label="Filter by type"
            value={filter.targetType}
            onChange={(event) => setFilter('type', event.target.value)}
          >
            <option value="">Any type</option>
            {FLAG_TARGETS.map((type) => (
              <option key={type} value={type}>
                {TARGET_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <Button variant="ghost" size="sm" onClick={() => setHelp(true)} aria-keyshortcuts="?">
          <Keyboard size={14} aria-hidden="true" />
          KEYS
        </Button>
      </div>
      {queue.isError && !queue.data ? (
        <p className="adm-error">Could not load the review queue. Try again in a moment.</p>
      ) : items === undefined ? (
        <div className="adm-review-list" aria-busy="true">
          {[0, 1].map((i) => (
            <Skeleton key={i} height="10rem" />
          ))}
        </div>
      ) : items.length === 0 ? (
        <p className="adm-empty">
          {filtered ? 'Nothing open matches these filters.' : 'The review queue is empty. Nothing to decide.'}
        </p>
      ) : (
        <ol className="adm-review-list" aria-label="Review queue">
          {items.map((item, i) => (
            <li key={item.id}>
              <ReviewCard
                item={item}
                selected={i === index}
                pending={decide.isPending && decide.variables?.item.id === item.id}
                onSelect={() => setSelected(i)}
                onDecide={(decision) => onDecide(item, decision)}
                cardRef={(element) => {
                  if (element) cards.current.set(item.id, element);
                  else cards.current.delete(item.id);
                }}
              />
            </li>
          ))}
        </ol>
      )}
      {items && items.length > 0 && (
        <ListFooter className="adm-footer" list={queue}>
          Showing {items.length} item{items.length === 1 ? '' : 's'} ·{' '}
          {queue.data?.pages.at(-1)?.openCount ?? 0} open in all
        </ListFooter>
      )}
      <AgreeDialog
        item={agreeing}
        onClose={() => setAgreeing(null)}
        onAgree={(body) => {
          const item = agreeing;
          setAgreeing(null);
          if (item) send(item, body);
        }}
      />
      <ShortcutsHelp open={help} onOpenChange={setHelp} />
    </div>
  );
}
