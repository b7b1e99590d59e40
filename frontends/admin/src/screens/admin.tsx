import { PAGES, TEXTS } from '@termpaste/contracts';
import { MODERATION_TEXTS } from '@termpaste/contracts/moderation';
import { Card, Spinner, cx, useCurrentUser, useReviewCount } from '@termpaste/ui';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useId, type KeyboardEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { AuditPanel } from '../components/audit-panel';
import { TrashPanel } from '../components/trash-panel';
import { PasteLookup } from '../components/paste-lookup';
import { ReviewPanel } from '../components/review-panel';
import { SpamMarksPanel } from '../components/spam-marks-panel';
import { TagsPanel } from '../components/tags-panel';
import { UsersPanel } from '../components/users-panel';

const TABS = [
  { id: 'users', label: 'USERS' },
  { id: 'audit', label: 'AUDIT LOG' },
  { id: 'trash', label: 'TRASH' },
  { id: 'pastes', label: 'PASTES' },
  { id: 'spam', label: MODERATION_TEXTS.spamMarks },
  { id: 'tags', label: 'TAGS' },
  { id: 'review', label: MODERATION_TEXTS.review },
] as const;
type TabId = (typeof TABS)[number]['id'];
/** The tabs at an address of their own. */
const OWN_ADDRESS: Partial<Record<TabId, string>> & Record<'review' | 'tags', string> = {
  review: PAGES.adminReview,
  tags: PAGES.adminTags,
};

/** Non-admins: the 403 view, and nothing is fetched. */
function AccessDenied() {
  return (
    <Card titleLevel={1} title="ADMIN PANEL" className="adm-narrow">
      <div className="adm-denied" role="alert">
        <ShieldAlert size={32} aria-hidden="true" />
        <p className="adm-denied__title">{TEXTS.accessDenied}</p>
        <p className="adm-muted">{TEXTS.adminRequired}</p>
      </div>
    </Card>
  );
}

/** `REVIEW (3)`: the tab names the queue's open items while there are some. */
const tabLabel = (tab: (typeof TABS)[number], reviewCount: number | undefined) =>
  tab.id === 'review' && reviewCount ? `${tab.label} (${reviewCount})` : tab.label;

/**
 * /admin: users, a paste by number or key, the audit log, the trash and the spam marks as tabs kept in the
 * address (`?tab=audit`), so a reload keeps it; the review queue is the tab at /admin/review, its label
 * counting the open items live.
 */
export function AdminScreen() {
  const { user, isLoading } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const baseId = useId();
  const staff = Boolean(user?.isAdmin || user?.isOwner);
  const reviewCount = useReviewCount(staff);
  const asked = params.get('tab');
  const path = pathname.replace(/\/+$/, '');
  const tab: TabId =
    path === PAGES.adminReview
      ? 'review'
      : path === PAGES.adminTags
        ? 'tags'
        : (TABS.find((t) => t.id === asked && !(t.id in OWN_ADDRESS) && t.id !== 'users')?.id ?? 'users');

  // On a narrow screen the tab bar scrolls: the open tab (REVIEW, last) is brought into it.
  useEffect(() => {
    const active = document.getElementById(`${baseId}-${tab}-tab`);
    const bar = active?.parentElement;
    if (active && bar && bar.scrollWidth > bar.clientWidth) {
      bar.scrollLeft = active.offsetLeft - bar.offsetLeft - (bar.clientWidth - active.offsetWidth) / 2;
    }
  }, [baseId, tab, staff]);

  if (isLoading) return <Spinner />;
  if (!staff || !user) return <AccessDenied />;

  const select = (next: TabId) => {
    // The queue and the tags have addresses of their own; the other tabs live under /admin.
    if (next === 'review' || next === 'tags') return navigate(OWN_ADDRESS[next]);
    if (tab === 'review' || tab === 'tags') {
      return navigate(next === 'users' ? PAGES.admin : `${PAGES.admin}?tab=${next}`);
    }
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === 'users') copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const index = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    select(next.id);
    document.getElementById(`${baseId}-${next.id}-tab`)?.focus();
  };

  return (
    <Card titleLevel={1} title="ADMIN PANEL" className="adm-wide">
      <div className="adm-tabs" role="tablist" aria-label="Admin sections" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${baseId}-${t.id}-tab`}
            aria-selected={tab === t.id}
            aria-controls={`${baseId}-${t.id}-panel`}
            tabIndex={tab === t.id ? 0 : -1}
            className={cx('adm-tab', tab === t.id && 'adm-tab--active')}
            onClick={() => select(t.id)}
          >
            {tabLabel(t, reviewCount)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}-tab`}>
        {tab === 'users' ? (
          <UsersPanel viewer={user} />
        ) : tab === 'pastes' ? (
          <PasteLookup />
        ) : tab === 'audit' ? (
          <AuditPanel />
        ) : tab === 'review' ? (
          <ReviewPanel />
        ) : tab === 'spam' ? (
          <SpamMarksPanel />
        ) : tab === 'tags' ? (
          <TagsPanel />
        ) : (
          <TrashPanel />
        )}
      </div>
    </Card>
  );
}
