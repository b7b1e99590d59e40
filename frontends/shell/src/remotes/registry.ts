import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTES_MANIFEST_PATH } from '@termpaste/contracts';
import { createRemoteLoader } from './remote-loader';

export const remoteLoader = createRemoteLoader({
  baseUrl: window.location.href,
  fetchManifest: async () => {
    const response = await fetch(REMOTES_MANIFEST_PATH, { cache: 'no-cache', credentials: 'include' });
    if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
    return response.json();
  },
  runtime: {
    register: (remotes, force) => registerRemotes(remotes, { force }),
    load: (id) => loadRemote(id),
  },
});
