import {
  REMOTE_NAMES,
  remotesManifestSchema,
  type RemoteName,
  type RemotesManifest,
} from '@termpaste/contracts';
import type { ComponentType } from 'react';

/** What a remote's `./screens` module exports. */
export interface RemoteScreensModule {
  screens: Record<string, ComponentType>;
}

export class RemoteOfflineError extends Error {
  constructor(
    readonly remote: RemoteName,
    override readonly cause: unknown,
  ) {
    super(`Remote "${remote}" is offline: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'RemoteOfflineError';
  }
}

export interface RemoteRuntime {
  /** Registers (or, with force, re-registers and forgets the cached entry of) remotes. */
  register(remotes: { name: string; entry: string }[], force: boolean): void;
  load(id: string): Promise<unknown>;
}

/**
 * Loads remotes by the addresses of `remotes.json` at run time, so a remote can move to another origin
 * without rebuilding the shell. A remote that fails is tried once more, then reported offline.
 */
export function createRemoteLoader(options: {
  runtime: RemoteRuntime;
  fetchManifest: () => Promise<unknown>;
  baseUrl: string;
}) {
  let manifest: Promise<RemotesManifest> | null = null;

  const entries = () => {
    manifest ??= options.fetchManifest().then((raw) => {
      const parsed = remotesManifestSchema.parse(raw);
      const resolved: RemotesManifest = {};
      for (const name of REMOTE_NAMES) {
        if (parsed[name]) resolved[name] = new URL(parsed[name], options.baseUrl).href;
      }
      options.runtime.register(
        Object.entries(resolved).map(([name, entry]) => ({ name, entry })),
        false,
      );
      return resolved;
    });
    // A failed manifest fetch is not cached: the next attempt fetches again.
    manifest.catch(() => (manifest = null));
    return manifest;
  };

  async function attempt(remote: RemoteName): Promise<RemoteScreensModule> {
    const known = await entries();
    if (!known[remote]) throw new Error(`remotes.json has no entry for "${remote}"`);
    const module = (await options.runtime.load(`${remote}/screens`)) as RemoteScreensModule | null;
    if (!module || typeof module.screens !== 'object')
      throw new Error(`"${remote}/screens" exposes no screens`);
    return module;
  }

  return {
    /** Reads remotes.json and registers every remote; a failure is retried by the next load. */
    async registerAll(): Promise<void> {
      await entries();
    },

    async loadScreens(remote: RemoteName): Promise<RemoteScreensModule['screens']> {
      try {
        return (await attempt(remote)).screens;
      } catch {
        try {
          const known = await entries();
          if (known[remote]) options.runtime.register([{ name: remote, entry: known[remote] }], true);
          return (await attempt(remote)).screens;
        } catch (error) {
          throw new RemoteOfflineError(remote, error);
        }
      }
    },
  };
}
