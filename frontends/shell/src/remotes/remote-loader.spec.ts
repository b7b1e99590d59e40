import { createRemoteLoader, RemoteOfflineError, type RemoteRuntime } from './remote-loader';

const Home = () => null;

function setup(options: { failures?: number; manifest?: unknown; manifestFails?: boolean } = {}) {
  let failuresLeft = options.failures ?? 0;
  const registered: { remotes: { name: string; entry: string }[]; force: boolean }[] = [];
  const loads: string[] = [];
  let manifestFetches = 0;
  const runtime: RemoteRuntime = {
    register: (remotes, force) => registered.push({ remotes, force }),
    load: async (id) => {
      loads.push(id);
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('ScriptExternalLoadError: Loading script failed');
      }
      return { screens: { Home } };
    },
  };
  const loader = createRemoteLoader({
    runtime,
    baseUrl: 'https://forum.example/thread/1',
    fetchManifest: async () => {
      manifestFetches += 1;
      if (options.manifestFails) throw new Error('503: Service Unavailable');
      return (
        options.manifest ?? {
          forum: '/remotes/forum/remoteEntry.js',
          admin: 'https://admin.example/remoteEntry.js',
          stranger: '/remotes/stranger/remoteEntry.js',
        }
      );
    },
  });
  return { loader, registered, loads, manifestFetches: () => manifestFetches };
}

describe('createRemoteLoader', () => {
  it('registers the remotes of remotes.json with absolute addresses and loads a screen module', async () => {
    const { loader, registered, loads } = setup();
    await expect(loader.loadScreens('forum')).resolves.toEqual({ Home });
    expect(registered).toEqual([
      {
        remotes: [
          { name: 'forum', entry: 'https://forum.example/remotes/forum/remoteEntry.js' },
          { name: 'admin', entry: 'https://admin.example/remoteEntry.js' },
        ],
        force: false,
      },
    ]);
    expect(loads).toEqual(['forum/screens']);
  });

  it('registers every remote up front without loading any', async () => {
    const { loader, registered, loads } = setup();
    await loader.registerAll();
    expect(registered[0]!.remotes.map((r) => r.name)).toEqual(['forum', 'admin']);
    expect(loads).toEqual([]);
  });

  it('fetches the manifest once for many remotes', async () => {
    const { loader, manifestFetches } = setup();
    await loader.loadScreens('forum');
    await loader.loadScreens('admin');
    expect(manifestFetches()).toBe(1);
  });

  it('retries a failed remote once, re-registering it', async () => {
    const { loader, registered, loads } = setup({ failures: 1 });
    await expect(loader.loadScreens('forum')).resolves.toEqual({ Home });
    expect(loads).toEqual(['forum/screens', 'forum/screens']);
    expect(registered.at(-1)).toEqual({
      remotes: [{ name: 'forum', entry: 'https://forum.example/remotes/forum/remoteEntry.js' }],
      force: true,
    });
  });

  it('reports the remote offline after the retry fails too', async () => {
    const { loader, loads } = setup({ failures: 2 });
    const error = await loader.loadScreens('forum').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteOfflineError);
    expect((error as RemoteOfflineError).remote).toBe('forum');
    expect(loads).toHaveLength(2);
  });

  it('reports a remote missing from remotes.json as offline without loading it', async () => {
    const { loader, loads } = setup();
    await expect(loader.loadScreens('messaging')).rejects.toThrow('no entry for "messaging"');
    expect(loads).toEqual([]);
  });

  it('fetches the manifest again after it failed', async () => {
    const { loader, manifestFetches } = setup({ manifestFails: true });
    await expect(loader.loadScreens('forum')).rejects.toBeInstanceOf(RemoteOfflineError);
    await expect(loader.loadScreens('forum')).rejects.toBeInstanceOf(RemoteOfflineError);
    expect(manifestFetches()).toBeGreaterThanOrEqual(3);
  });

  it('refuses a manifest that is not a name-to-address map', async () => {
    const { loader } = setup({ manifest: ['forum'] });
    await expect(loader.loadScreens('forum')).rejects.toBeInstanceOf(RemoteOfflineError);
  });
});
