import { createRoot } from 'react-dom/client';
import { App } from './app';
import { remoteLoader } from './remotes/registry';

// Remote addresses are known from the start; a failure here surfaces where a remote is mounted.
remoteLoader.registerAll().catch(() => undefined);

createRoot(document.getElementById('root')!).render(<App />);
