import { workerConfig } from '../mf-shared';

/**
 * The code view's highlighting worker (src/components/code-view/highlight.worker.ts), beside the remote's
 * files in dist/static/worker/. The page starts it from the remote's public path.
 */
export default workerConfig(
  { 'highlight-worker': './src/components/code-view/highlight.worker.ts' },
  'static/worker',
);
