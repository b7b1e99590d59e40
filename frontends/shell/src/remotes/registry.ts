import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTES_MANIFEST_PATH } from '@termpaste/contracts';
import { REMOTES_DATA_ID } from '@termpaste/contracts/first-paint';
import { createRemoteLoader } from './remote-loader';

export const remoteLoader = createRemoteLoader({
  baseUrl: window.location.href,
  fetchManifest: async () => {
    // The server puts remotes.json in the page: one round trip fewer before the first remote loads.
    const inlined = document.getElementById(REMOTES_DATA_ID)?.textContent;
    if (inlined) return JSON.parse(inlined);
    const response = await fetch(REMOTES_MANIFEST_PATH, { cache: 'no-cache', credentials: 'include' });
    if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
    return response.json();
  },
  runtime: {
    register: (remotes, force) => registerRemotes(remotes, { force }),
    load: (id) => loadRemote(id),
  },
});
