import { defineConfig } from '@rsbuild/core';

/**
 * The code view's highlighting worker (src/components/code-view/highlight.worker.ts), built on its own
 * after the remote (`npm run build`): Module Federation's runtime, which the remote's build puts in
 * every entry, cannot start in a worker (it expects the shell's). Self-contained, beside the remote's
 * files in dist/static/worker/, its grammars fetched on first use as chunks of their own (importScripts,
 * addressed from the worker's own URL). The page starts it from the remote's public path.
 */
export default defineConfig({
  source: { entry: { 'highlight-worker': './src/components/code-view/highlight.worker.ts' } },
  output: {
    target: 'web',
    assetPrefix: 'auto',
    cleanDistPath: false,
    distPath: { root: 'dist', js: 'static/worker', jsAsync: 'static/worker/async' },
    filename: { js: '[name].js' },
    sourceMap: false,
  },
  tools: {
    htmlPlugin: false,
    rspack: (config) => {
      config.target = 'webworker';
      config.output = {
        ...config.output,
        chunkLoading: 'import-scripts',
        publicPath: 'auto',
        // A grammar's file never changes under its name (cached for good); the entry's name is fixed.
        chunkFilename: 'static/worker/async/[name].[contenthash:10].js',
      };
    },
  },
  performance: { chunkSplit: { strategy: 'all-in-one' }, printFileSize: { total: true, detail: false } },
});
