// @termpaste/ui: the terminal design system, shared as a Module Federation singleton (one toast store,
// one tooltip provider, one confirm dialog). Styles: import '@termpaste/ui/theme.css' once in each app.

export { cx } from './lib/cx.js';
export { takeOverPaint, useTakeOverPaint } from './lib/paint.js';
export {
  AnsiSpans,
  AnsiText,
  hasEscapes,
  hasSgr,
  loadAnsi,
  sgrOnly,
  stripAnsi,
  useAnsi,
  type AnsiConverter,
  type AnsiLine,
  type AnsiSpan,
} from './lib/ansi.js';
export { FILTER_DELAY_MS, useDebouncedFilter } from './lib/debounced-filter.js';
export {
  prefersReducedMotion,
  REDUCED_MOTION_QUERY,
  scrollBehavior,
  usePrefersReducedMotion,
} from './lib/motion.js';
export {
  KEYBOARD_ITEM,
  KEYBOARD_OPEN,
  KeyboardShortcuts,
  useKeyboardAction,
  useKeyboardHelp,
  useKeyboardList,
  type KeyboardAction,
  type KeyboardActionHandler,
  type KeyboardShortcutsProps,
} from './keyboard/keyboard.js';
export {
  hasCommandModifier,
  isInsideWidget,
  isTypingTarget,
  SEQUENCE_TIMEOUT_MS,
  SHORTCUTS,
  type Shortcut,
  type ShortcutCommand,
} from './keyboard/shortcuts.js';
export { emailPrefix, initials, relativeTime, shortDate, type AvatarUser } from './lib/format.js';

export {
  apiRequest,
  createQueryClient,
  errorMessage,
  getJson,
  getQueryFn,
  isUnauthorizedError,
  sendJson,
  type Schema,
  type UnauthorizedBehavior,
} from './api/client.js';
export { currentUserQuery, useCurrentUser, type CurrentUserState } from './api/current-user.js';
export {
  peopleListQuery,
  useChangePeople,
  usePeople,
  type People,
  type PeopleChange,
  type PeopleListKind,
  type PersonState,
} from './people/people.js';
export { PersonGate, PersonNote, useWithoutBlocked, type PersonGateProps } from './people/person-gate.js';
export { PeopleButtons, type PeopleButtonsProps } from './people/people-buttons.js';
export {
  bookmarksQuery,
  followQuery,
  pasteWatchQuery,
  tagWatchQuery,
  useAutoWatch,
  useBookmarkChange,
  useWatchChange,
  watchingListQuery,
  type BookmarkChange,
  type WatchChange,
} from './watching/watching.js';
export { refreshQueries } from './api/refresh.js';
export { toastError, useFormCall } from './api/form-call.js';
export { siteQuery, useProductName, useSignInOptions } from './api/site.js';
export {
  LIVE_BACKOFF,
  LIVE_HEARTBEAT,
  liveUrl,
  parseLiveEvent,
  type LiveScope,
  type LiveStatus,
} from './api/live-socket.js';
export { LiveBadge, LiveEventsProvider, useLiveEvents, type UseLiveEventsOptions } from './api/live.js';
export { redirectToLogin } from './api/unauthorized.js';
export {
  isSecretWarningDismissed,
  secretFindingsOf,
  SecretWarningDismissed,
  withAllowSecrets,
} from './api/secrets.js';
export { FormFields, TextField, useFormFields } from './components/form.js';

export { Avatar, type AvatarProps } from './components/avatar.js';
export { Badge, type BadgeProps, type BadgeVariant } from './components/badge.js';
export { countOf, JumpPill, NewItemsBar, PresenceCount } from './components/live-notices.js';
export { Notice, type NoticeProps, type NoticeTone } from './components/notice.js';
export {
  Button,
  IconButton,
  type ButtonProps,
  type ButtonSize,
  type ButtonVariant,
  type IconButtonProps,
} from './components/button.js';
export { Card, type CardProps } from './components/card.js';
export { ConfirmProvider, useConfirm, type Confirm, type ConfirmOptions } from './components/confirm.js';
export { CopyButton, type CopyButtonProps } from './components/copy-button.js';
export { SecretWarningProvider, useSecretWarning, type SecretGuard } from './components/secret-warning.js';
export type { SecretWarningDialogProps } from './components/secret-warning-dialog.js';
export { Dock, DockButton, type DockButtonProps, type DockProps } from './components/dock.js';
export { CharCount, FormActions, Input, Label, LabelRow, Textarea } from './components/field.js';
export { lazyScreen, ScreenSkeleton } from './components/lazy-screen.js';
export { ListFooter, type ListFooterProps } from './components/list-footer.js';
export { Modal, type ModalProps } from './components/modal.js';
export { Markdown, preloadMarkdown, type MarkdownProps } from './components/markdown.js';
export { RankBadge, UserName } from './components/rank.js';
export { Skeleton, type SkeletonProps } from './components/skeleton.js';
export { Spinner, type SpinnerProps } from './components/spinner.js';
export {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  TableSkeletonRows,
  type TableSkeletonRowsProps,
} from './components/table.js';
export {
  dismissToast,
  toast,
  useToast,
  type ToastHandle,
  type ToastItem,
  type ToastOptions,
  type ToastVariant,
} from './components/toast-store.js';
export { Toaster } from './components/toaster.js';
export {
  Tooltip,
  TooltipProvider,
  type TooltipProps,
  type TooltipProviderProps,
  type TooltipSide,
} from './components/tooltip.js';
export { UiProvider, type UiProviderProps } from './components/ui-provider.js';
export { ScreenPlaceholder } from './components/screen-placeholder.js';
export { CONTENT_ID, SkipLink } from './components/skip-link.js';
export { FlagButton, type FlagButtonProps } from './moderation/flag-button.js';
export { isHiddenItem } from './moderation/hidden.js';
export { reviewCountQuery, useReviewCount } from './moderation/review-count.js';
