import { MESSAGING_TEXTS } from './messaging.js';

/**
 * Every HTTP path, in one place for the controllers, the API client and the tests. A path with
 * parameters takes the pattern's syntax: `API.thread(':id')` for Express, `API.thread('{id}')` for OpenAPI.
 */
export const API = {
  health: '/api/health',
  /** Readiness: the database and, when configured, Redis answer (health is liveness only). */
  ready: '/api/ready',
  site: '/api/site',
  currentUser: '/api/auth/user',
  login: '/api/login',
  logout: '/api/logout',
  register: '/api/register',
  forgotPassword: '/api/forgot-password',
  resetPassword: '/api/reset-password',
  changePassword: '/api/change-password',
  /** E-mail verification: the mailed link's token, and a new link for the signed-in member. */
  verifyEmail: '/api/verify-email',
  verifyEmailResend: '/api/verify-email/resend',
  /** Without OWNER_EMAIL: a verified member becomes the owner with the start-up log's setup code. */
  ownerClaim: '/api/owner/claim',
  notifications: '/api/notifications',
  notificationsUnreadCount: '/api/notifications/unread-count',
  notificationsMarkAllRead: '/api/notifications/mark-all-read',
  notificationRead: (id: string | number) => `/api/notifications/${id}/read`,
  /** Which notifications also come by e-mail, and the digest's frequency. */
  userNotificationPreferences: '/api/user/notification-preferences',
  /** A mail's unsubscribe link (no sign-in: its token names the member and what it turns off). */
  unsubscribe: '/api/unsubscribe',
  threadsRecent: '/api/threads/recent',
  threadsFeatured: '/api/threads/featured',
  threads: '/api/threads',
  thread: (id: string | number) => `/api/threads/${id}`,
  threadRaw: (id: string | number) => `/api/threads/${id}/raw`,
  /** A signed paste's armoured SSH signature (`ssh-keygen -Y verify -s`), beside its raw text. */
  threadRawSignature: (id: string | number) => `/api/threads/${id}/raw.sig`,
  threadReplies: (id: string | number) => `/api/threads/${id}/replies`,
  /** A paste that burns after reading: its content, deleting it in the same transaction. */
  threadReadOnce: (id: string | number) => `/api/threads/${id}/read-once`,
  /** A new paste from this one's title and content (`forkedFrom`), and its public forks. */
  threadFork: (id: string | number) => `/api/threads/${id}/fork`,
  threadForks: (id: string | number) => `/api/threads/${id}/forks`,
  /** A paste's versions, newest first, and one version's full text. */
  threadRevisions: (id: string | number) => `/api/threads/${id}/revisions`,
  threadRevision: (id: string | number, n: string | number) => `/api/threads/${id}/revisions/${n}`,
  /** The paste's author applies a line comment's suggested change: a new version crediting its author. */
  threadSuggestionApply: (id: string | number, replyId: string | number) =>
    `/api/threads/${id}/suggestions/${replyId}/apply`,
  /** A reply (its author or an admin edits it with PATCH), its versions, and one version's text. */
  reply: (id: string | number) => `/api/replies/${id}`,
  replyRevisions: (id: string | number) => `/api/replies/${id}/revisions`,
  replyRevision: (id: string | number, n: string | number) => `/api/replies/${id}/revisions/${n}`,
  votes: '/api/votes',
  adminThreadPin: (id: string | number) => `/api/admin/threads/${id}/pin`,
  adminThreadLock: (id: string | number) => `/api/admin/threads/${id}/lock`,
  adminThreadFeatured: (id: string | number) => `/api/admin/threads/${id}/featured`,
  adminThread: (id: string | number) => `/api/admin/threads/${id}`,
  adminReply: (id: string | number) => `/api/admin/replies/${id}`,
  users: '/api/users',
  user: (id: string | number) => `/api/users/${id}`,
  /** A member's reputation ledger: their own, or any for an admin. */
  userReputation: (id: string | number) => `/api/users/${id}/reputation`,
  /** The signed-in member's account: `DELETE` deletes it (and everything that is theirs). */
  userAccount: '/api/user',
  /** The member's data export: `POST` queues one, `GET` says its status and link. */
  userExport: '/api/user/export',
  /** The member's export archive, by the signed link GET /api/user/export answers (and the mail holds). */
  userExportDownload: (id: string | number) => `/api/user/export/${id}/download`,
  /** Confirms a provider-only member's account deletion with the token of the mailed link. */
  userDeleteConfirm: '/api/user/delete-confirm',
  userProfile: '/api/user/profile',
  /** The member's mutes and blocks: GET the list, PUT (or POST) and DELETE one member. */
  userMutes: '/api/user/mutes',
  userMute: (id: string | number) => `/api/user/mutes/${id}`,
  userBlocks: '/api/user/blocks',
  userBlock: (id: string | number) => `/api/user/blocks/${id}`,
  /** Flag an item for the staff; the member's own flags. */
  flags: '/api/flags',
  flagsMine: '/api/flags/mine',
  userAvatar: '/api/user/avatar',
  userSelectRank: '/api/user/select-rank',
  /** The signed-in member's personal access tokens (session only). */
  userTokens: '/api/user/tokens',
  userToken: (id: string | number) => `/api/user/tokens/${id}`,
  /** The signed-in member's SSH public keys (session only), and one to delete. */
  userKeys: '/api/user/keys',
  userKey: (id: string | number) => `/api/user/keys/${id}`,
  /** A member's SSH public keys in `authorized_keys` format, for anyone (like GitHub's `.keys`). */
  userPublicKeys: (id: string | number) => `/api/users/${id}/keys`,
  /** Single sign-on: start at a provider, its callback, the first sign-in's username. */
  ssoStart: (provider: string) => `/api/auth/sso/${provider}`,
  ssoCallback: (provider: string) => `/api/auth/sso/${provider}/callback`,
  ssoUsername: '/api/auth/sso/username',
  /** Outside /api/auth/sso/ so that it never shadows a provider's id. */
  ssoRefusal: '/api/auth/sso-refusal',
  /** The signed-in member's linked provider identities (session only), and one to unlink. */
  userIdentities: '/api/user/identities',
  userIdentity: (id: string | number) => `/api/user/identities/${id}`,
  /** A paste from the terminal: the body is the paste (or a form file, or JSON). */
  pastes: '/api/pastes',
  objectsUpload: '/api/objects/upload',
  messages: '/api/messages',
  messagesSent: '/api/messages/sent',
  messageRead: (id: string | number) => `/api/messages/${id}/read`,
  search: '/api/search',
  /** oEmbed: the HTML that embeds a paste of this site, by its address. */
  oembed: '/api/oembed',
  /** The Atom feeds (served beside the app, not under /api): home's, a tag's, a member's, a search's. */
  feedRecent: '/feeds/recent.atom',
  /** A tag's names are URL-safe (TAG_NAME_PATTERN). */
  feedTag: (name: string) => `/feeds/tags/${name}.atom`,
  feedUser: (id: string | number) => `/feeds/users/${id}.atom`,
  feedSearch: '/feeds/search.atom',
  /** Tags by use (`?q=`: the suggestions), and one tag's listed pastes. */
  tags: '/api/tags',
  tag: (name: string) => `/api/tags/${name}`,
  /** The listed pastes in one language (the language facet). */
  language: (name: string) => `/api/languages/${name}`,
  /** Every tag (admins), and one to rename (PATCH), delete (DELETE) or merge into another. */
  adminTags: '/api/admin/tags',
  adminTag: (name: string) => `/api/admin/tags/${name}`,
  adminTagMerge: (name: string) => `/api/admin/tags/${name}/merge`,
  adminUsers: '/api/admin/users',
  adminUserBan: (id: string | number) => `/api/admin/users/${id}/ban`,
  adminUserUnban: (id: string | number) => `/api/admin/users/${id}/unban`,
  adminUser: (id: string | number) => `/api/admin/users/${id}`,
  adminUserUsername: (id: string | number) => `/api/admin/users/${id}/username`,
  adminUserAvatar: (id: string | number) => `/api/admin/users/${id}/avatar`,
  adminUserGrades: (id: string | number) => `/api/admin/users/${id}/grades`,
  adminUserRole: (id: string | number) => `/api/admin/users/${id}/admin`,
  adminUserSilence: (id: string | number) => `/api/admin/users/${id}/silence`,
  adminUserUnsilence: (id: string | number) => `/api/admin/users/${id}/unsilence`,
  /** Deletes the member, their posts and chat messages, and remembers their address for the spam signals. */
  adminUserSpammer: (id: string | number) => `/api/admin/users/${id}/spammer`,
  adminReview: '/api/admin/review',
  adminReviewItem: (id: string | number) => `/api/admin/review/${id}`,
  /** A bare number: the open review items (the admin navigation's count). */
  adminReviewCount: '/api/admin/review/count',
  adminAudit: '/api/admin/audit',
  /** Deleted pastes and replies, kept 30 days: staff list and restore them. */
  adminTrash: '/api/admin/trash',
  adminSpamMarks: '/api/admin/spam-marks',
  adminSpamMark: (id: string | number) => `/api/admin/spam-marks/${id}`,
  adminThreadRestore: (id: string | number) => `/api/admin/threads/${id}/restore`,
  adminReplyRestore: (id: string | number) => `/api/admin/replies/${id}/restore`,
  /** The operators' queue dashboard (bull-board), admins only, with REDIS_URL. */
  adminQueues: '/api/admin/queues',
  support: '/api/support',
  /** Where the local storage adapter takes presigned PUTs and serves stored objects. */
  uploads: '/api/uploads',
  /** A stored object of the local storage adapter, by its key (`<kind>/<userId>/<random>`). */
  upload: (key: string) => `/api/uploads/${key}`,
  chat: '/api/chat',
  chatMessages: '/api/chat/messages',
  /** Watching a paste, following a member, watching a tag: PUT to start, DELETE to stop, GET the state. */
  threadWatch: (id: string | number) => `/api/threads/${id}/watch`,
  userFollow: (id: string | number) => `/api/users/${id}/follow`,
  tagWatch: (name: string) => `/api/tags/${name}/watch`,
  /** The member's bookmarks, newest first; PUT/DELETE one of a paste or a reply. */
  bookmarks: '/api/bookmarks',
  bookmark: (kind: string, id: string | number) => `/api/bookmarks/${kind}/${id}`,
  /** What the member watches and follows, and whether they watch what they post and reply to. */
  userWatching: '/api/user/watching',
  /** This API's documentation (an HTML page) and the OpenAPI document it shows (see openapi.ts). */
  docs: '/api/docs',
  openApi: '/api/docs/openapi.json',
} as const;

export const WS = { chat: '/ws/chat' } as const;

/** The remote manifest the shell reads at start: remote name to its entry URL. */
export const REMOTES_MANIFEST_PATH = '/remotes.json';
export const REMOTE_NAMES = ['forum', 'messaging', 'settings', 'admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** The site's pages. */
export const PAGES = {
  landing: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** Opened from the verification mail, signed in or not. */
  verifyEmail: '/verify-email',
  /** Where a verified member enters the owner's setup code. */
  ownerSetup: '/setup',
  home: '/',
  newThread: '/thread/new',
  thread: (id: string | number) => `/thread/${id}`,
  /** A paste's versions and the diff between any two. */
  threadRevisions: (id: string | number) => `/thread/${id}/revisions`,
  profile: (id: string | number) => `/profile/${id}`,
  profileSelf: '/profile',
  user: (id: string | number) => `/user/${id}`,
  users: '/users',
  messages: '/messages',
  /** /messages with the compose form open, addressed to `to` (a username). */
  messagesTo: (to: string) => `/messages?to=${encodeURIComponent(to)}`,
  notifications: '/notifications',
  search: (q?: string) => (q === undefined ? '/search' : `/search?q=${encodeURIComponent(q)}`),
  hardest: '/hardest',
  /** A tag's listed pastes; every tag by use; a language's listed pastes. */
  tag: (name: string) => `/tag/${encodeURIComponent(name)}`,
  tags: '/tags',
  language: (name: string) => `/lang/${encodeURIComponent(name)}`,
  admin: '/admin',
  adminTags: '/admin/tags',
  /** The review queue: flagged items and held posts. */
  adminReview: '/admin/review',
  chat: '/chat',
  ranks: '/ranks',
  upgrades: '/upgrades',
  support: '/support',
  settings: '/settings',
  settingsPassword: '/settings/password',
  /** The pastes, members and tags the member watches or follows. */
  settingsWatching: '/settings/watching',
  bookmarks: '/bookmarks',
  settingsTokens: '/settings/tokens',
  /** The member's SSH keys, which sign pastes. */
  settingsKeys: '/settings/keys',
  /** Linked sign-in providers. */
  settingsAccounts: '/settings/accounts',
  /** Export my data, delete my account. */
  settingsAccount: '/settings/account',
  /** The members the member muted and blocked. */
  settingsPeople: '/settings/people',
  /** Notifications by e-mail and the digest. */
  settingsNotifications: '/settings/notifications',
  /** Opened from a mail's unsubscribe link, signed in or not. */
  unsubscribe: '/unsubscribe',
  /** After a first provider sign-in: keep or change the proposed username (once). */
  ssoWelcome: '/welcome',
} as const;

/**
 * The signed-in router: each path, its remote and the screen it exposes (each remote's `screens` must export
 * it).
 */
export const SIGNED_IN_ROUTES = [
  { path: '/', remote: 'forum', screen: 'Home' },
  { path: '/thread/new', remote: 'forum', screen: 'NewThread' },
  { path: '/thread/:id', remote: 'forum', screen: 'Thread' },
  { path: '/thread/:id/revisions', remote: 'forum', screen: 'Revisions' },
  { path: '/profile', remote: 'forum', screen: 'Profile' },
  { path: '/profile/:id', remote: 'forum', screen: 'Profile' },
  // Thread cards and the top-bar menu both link to /user/{id}.
  { path: '/user/:id', remote: 'forum', screen: 'Profile' },
  { path: '/users', remote: 'forum', screen: 'Users' },
  { path: '/search', remote: 'forum', screen: 'Search' },
  { path: '/hardest', remote: 'forum', screen: 'Hardest' },
  { path: '/bookmarks', remote: 'forum', screen: 'Bookmarks' },
  { path: '/tag/:name', remote: 'forum', screen: 'Tag' },
  { path: '/tags', remote: 'forum', screen: 'Tags' },
  { path: '/lang/:name', remote: 'forum', screen: 'Language' },
  { path: '/messages', remote: 'messaging', screen: 'Messages' },
  { path: '/notifications', remote: 'messaging', screen: 'Notifications' },
  { path: '/chat', remote: 'messaging', screen: 'Chat' },
  { path: '/settings', remote: 'settings', screen: 'Settings' },
  { path: '/settings/password', remote: 'settings', screen: 'ChangePassword' },
  { path: '/settings/tokens', remote: 'settings', screen: 'Tokens' },
  { path: '/settings/keys', remote: 'settings', screen: 'SshKeys' },
  { path: '/settings/accounts', remote: 'settings', screen: 'Accounts' },
  { path: '/settings/account', remote: 'settings', screen: 'Account' },
  { path: '/settings/people', remote: 'settings', screen: 'People' },
  { path: '/settings/notifications', remote: 'settings', screen: 'NotificationPreferences' },
  { path: '/settings/watching', remote: 'settings', screen: 'Watching' },
  // Reached signed in, after a first provider sign-in made the account.
  { path: '/welcome', remote: 'settings', screen: 'Welcome' },
  { path: '/ranks', remote: 'settings', screen: 'Ranks' },
  { path: '/upgrades', remote: 'settings', screen: 'Upgrades' },
  { path: '/support', remote: 'settings', screen: 'Support' },
  { path: '/admin', remote: 'admin', screen: 'Admin' },
  { path: '/admin/review', remote: 'admin', screen: 'Review' },
  { path: '/admin/tags', remote: 'admin', screen: 'Tags' },
] as const satisfies readonly { path: string; remote: RemoteName; screen: string }[];

export type SignedInRoute = (typeof SIGNED_IN_ROUTES)[number];
/** The screens a remote must expose. */
export type ScreenName<R extends RemoteName> = Extract<SignedInRoute, { remote: R }>['screen'];

/** The icons a widget's facade can show (the shell maps each key to its lucide-react icon). */
export type WidgetIcon = 'messages-square';

/**
 * What the shell draws for a widget until it is wanted (import on interaction): a round button in a
 * dock at the end of the page, looking like the widget's own toggle. Hovering or focusing it fetches
 * the remote; a click mounts the widget, open.
 */
export interface WidgetFacade {
  /** The button's accessible name: the same as the widget's own toggle. */
  label: string;
  icon: WidgetIcon;
  /** The widget renders nothing for a visitor, so neither does its facade. */
  membersOnly: boolean;
}

/** The props the shell gives a widget: defaultOpen when a click on its facade mounted it. */
export interface RemoteWidgetProps {
  /** Start open, with the focus on the widget's own toggle (the facade that had it is gone). */
  defaultOpen?: boolean;
}

/**
 * Widgets a remote exposes beside its screens, mounted by the shell on the listed paths (the chat
 * popover on home). Until a member reaches for one, the shell shows its facade and loads nothing.
 */
export const REMOTE_WIDGETS = [
  {
    remote: 'messaging',
    widget: 'ChatPopover',
    paths: ['/'],
    facade: { label: MESSAGING_TEXTS.openGlobalChat, icon: 'messages-square', membersOnly: true },
  },
] as const satisfies readonly {
  remote: RemoteName;
  widget: string;
  paths: readonly string[];
  facade: WidgetFacade;
}[];

/** Paths a visitor who is not signed in can open. */
export const PUBLIC_PATHS = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/unsubscribe',
] as const;

/** The widgets a remote must expose (REMOTE_WIDGETS). */
export type WidgetName<R extends RemoteName> = Extract<
  (typeof REMOTE_WIDGETS)[number],
  { remote: R }
>['widget'];
