import { defineConfig } from '@rsbuild/core';
import { pluginPrecompress } from '../mf-shared';

/**
 * The Markdown worker of @termpaste/ui (ui/src/components/markdown.worker.ts, from ui's build), built on
 * its own after the shell (`npm run build`): Module Federation's runtime, which the shell's build puts in
 * every entry, cannot start in a worker. The shell serves it, as every remote's Markdown comes from the
 * one @termpaste/ui the shell provides: `/markdown-worker.js` beside index.html, under a fixed name and so
 * revalidated on each load (outside /static/, which is cached for good); the grammars its code blocks
 * name are chunks of their own in static/worker/async/, fetched on first use (importScripts).
 */
export default defineConfig(({ command }) => ({
  plugins: [command === 'build' && pluginPrecompress()],
  source: { entry: { 'markdown-worker': '../ui/dist/components/markdown.worker.js' } },
  output: {
    target: 'web',
    assetPrefix: 'auto',
    cleanDistPath: false,
    distPath: { root: 'dist', js: '', jsAsync: 'static/worker/async' },
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
}));
