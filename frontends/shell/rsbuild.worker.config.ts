import { defineConfig } from '@rsbuild/core';
import { pluginPrecompress, workerConfig } from '../mf-shared';

/**
 * The Markdown worker of @termpaste/ui (ui/src/components/markdown.worker.ts, from ui's build). The shell
 * serves it, as every remote's Markdown comes from the one @termpaste/ui the shell provides:
 * `/markdown-worker.js` beside index.html, under a fixed name and so revalidated on each load (outside
 * /static/, which is cached for good).
 */
export default defineConfig(({ command }) =>
  workerConfig({ 'markdown-worker': '../ui/dist/components/markdown.worker.js' }, '', [
    command === 'build' && pluginPrecompress(),
  ]),
);
