import { z } from 'zod';

/** Every error the API sends has this shape. */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * `GET /api/health`, liveness: 200 while the process serves, whatever its dependencies (a database
 * outage must not get every instance restarted); `db` says, for information, whether PostgreSQL answers.
 */
export const healthSchema = z.object({
  status: z.literal('ok'),
  db: z.enum(['up', 'down']),
});
export type Health = z.infer<typeof healthSchema>;

/**
 * `GET /api/ready`: 200 when PostgreSQL (and Redis, when REDIS_URL is set) answer in time, else 503
 * naming the part that does not.
 */
export const readySchema = z.object({
  status: z.enum(['ready', 'not ready']),
  db: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down', 'not configured']),
  /**
   * With DATABASE_READ_URL: the read replicas taking reads now, of all; one down or lagging leaves the
   * instance ready (its reads go to the primary).
   */
  replicas: z.object({ up: z.number().int(), total: z.number().int() }).optional(),
});
export type Ready = z.infer<typeof readySchema>;

export const pasteSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  createdAt: z.string(),
});

/** The signed-in user as `GET /api/auth/user` returns it (never the password hash). */
export const currentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  bio: z.string().nullable(),
  reputation: z.number().int(),
  activePremiumRank: z.string().nullable(),
  ownedPremiumRanks: z.array(z.string()),
  threadCount: z.number().int(),
  replyCount: z.number().int(),
  createdAt: z.string(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  isBanned: z.boolean(),
  /** Whether the member opened the link mailed to their address (until then they may not write). */
  emailVerified: z.boolean(),
  /**
   * Silenced by staff (read-only but for support requests) until then, for that reason; null (or
   * absent) when not. The screens show it as a banner.
   */
  silencedUntil: z.string().nullable().optional(),
  silenceReason: z.string().nullable().optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** `remotes.json`: remote name to the URL of its `mf-manifest.json` or `remoteEntry.js`. */
export const remotesManifestSchema = z.record(z.string(), z.string().min(1));
export type RemotesManifest = z.infer<typeof remotesManifestSchema>;
