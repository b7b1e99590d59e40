/**
 * The one list of Module Federation shared singletons and the one Rsbuild config factory that the shell
 * and every remote import, so the shared block is never copied between build configs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { constants as zlib, brotliCompressSync, gzipSync } from 'node:zlib';
import { defineConfig, type RsbuildConfig, type RsbuildPlugin } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';

const require = createRequire(import.meta.url);
const versionOf = (packageJson: string | URL) =>
  (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
/** A module of ui/src/shared: the part of a package the apps share (its comment says why). */
const sharedPart = (file: string) => fileURLToPath(new URL(`./ui/dist/shared/${file}`, import.meta.url));

export const SHARED_SINGLETONS = {
  react: { singleton: true },
  'react-dom': { singleton: true },
  // Only the names the apps use, under the package's own version.
  'react-router-dom': {
    singleton: true,
    import: sharedPart('react-router-dom.js'),
    version: versionOf(require.resolve('react-router-dom/package.json')),
  },
  '@tanstack/react-query': { singleton: true },
  '@termpaste/ui': { singleton: true },
  // The schemas (and zod under them) are loaded once for the page, not once per remote; all of the
  // package but its OpenAPI document.
  '@termpaste/contracts': {
    singleton: true,
    import: sharedPart('contracts.js'),
    version: versionOf(new URL('../contracts/package.json', import.meta.url)),
  },
  // Contracts files shared apart from the singleton above, each fetched with the first screen that reads
  // it rather than on every first visit: the single sign-on texts (visitors' sign-in pages, settings), the
  // settings remote's, the admin remote's, the forum's revisions and reputation, the texts of a post's life, moderation (ui/src/shared/contracts-<file>.ts).
  ...Object.fromEntries(
    (
      [
        'sso',
        'settings',
        'tokens',
        'account',
        'admin',
        'permissions',
        'revisions',
        'reputation',
        'own-posts',
        'moderation',
        'asciicast',
      ] as const
    ).map((file) => [
      `@termpaste/contracts/${file}`,
      {
        singleton: true,
        import: sharedPart(`contracts-${file}.js`),
        version: versionOf(new URL('../contracts/package.json', import.meta.url)),
      },
    ]),
  ),
} as const;

/** The shared modules as a build that takes them all from the shell, bundling none, declares them. */
function takenFromTheShell(shared: typeof SHARED_SINGLETONS) {
  return Object.fromEntries(
    Object.entries(shared).map(([key, config]) => [key, { ...config, import: false as const }]),
  );
}

/** What a build precompresses: the text the browser loads (scripts, styles, pages, manifests). */
const PRECOMPRESSED = /\.(m?js|css|html|json|svg)$/;

/**
 * Writes a `.br` (brotli, best) and a `.gz` (gzip, best) beside every text asset of a production build,
 * when smaller, so a server sends them compressed without compressing on each request (the backend's
 * backend/src/http/frontends.ts does).
 */
export function pluginPrecompress(): RsbuildPlugin {
  return {
    name: 'termpaste:precompress',
    setup(api) {
      api.processAssets({ stage: 'report' }, ({ assets, compilation, sources }) => {
        for (const [name, asset] of Object.entries(assets)) {
          if (!PRECOMPRESSED.test(name)) continue;
          const content = asset.buffer();
          const brotli = brotliCompressSync(content, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
          });
          const gzip = gzipSync(content, { level: 9 });
          if (brotli.length < content.length)
            compilation.emitAsset(`${name}.br`, new sources.RawSource(brotli));
          if (gzip.length < content.length) compilation.emitAsset(`${name}.gz`, new sources.RawSource(gzip));
        }
      });
    },
  };
}

/** Dev-server ports (`npm run dev`); production serves every build from the backend or nginx. */
export const DEV_PORTS = { shell: 3001, forum: 3101, messaging: 3102, settings: 3103, admin: 3104 } as const;
export const DEV_BACKEND = 'http://127.0.0.1:3000';

type FrontendName = keyof typeof DEV_PORTS;

export function frontendConfig(name: FrontendName) {
  const isShell = name === 'shell';
  return defineConfig(({ command }): RsbuildConfig => ({
    plugins: [
      pluginReact(),
      command === 'build' && pluginPrecompress(),
      pluginModuleFederation(
        {
          name: isShell ? 'termpaste_shell' : name,
          // Remote addresses are read from remotes.json at run time, never baked into the shell.
          remotes: {},
          ...(isShell ? {} : { filename: 'remoteEntry.js', exposes: { './screens': './src/screens.tsx' } }),
          // A built remote takes every shared module from the shell (which provides them all) and carries no
          // copy of its own; on a dev server it keeps its copies, to run standalone.
          shared: isShell || command !== 'build' ? SHARED_SINGLETONS : takenFromTheShell(SHARED_SINGLETONS),
          dts: false,
          experiments: {
            // The shell hands its federation runtime to the remotes: a built remote's remoteEntry.js
            // carries no copy of its own. On a dev server a remote keeps its own, to run standalone.
            ...(isShell ? { provideExternalRuntime: true } : { externalRuntime: command === 'build' }),
            // A remote loads no remote of its own.
            optimization: { target: 'web', disableRemote: !isShell },
          },
        },
        {},
      ),
    ],
    source: { entry: { index: './src/index.ts' } },
    html: { title: 'Termpaste', template: isShell ? './src/index.html' : undefined },
    output: {
      // Remotes may be served under /remotes/<name>/ or from another origin: resolve chunks from where
      // remoteEntry.js was loaded. The shell lives at the site root.
      assetPrefix: isShell ? '/' : 'auto',
      cleanDistPath: true,
    },
    performance: {
      chunkSplit: { strategy: 'split-by-experience' },
      // The size table lists each file once (its gzip size beside it), not its precompressed copies.
      printFileSize: { exclude: (asset) => /\.(?:map|LICENSE\.txt|br|gz)$/.test(asset.name) },
    },
    server: {
      port: DEV_PORTS[name],
      host: '127.0.0.1',
      strictPort: true,
      cors: !isShell,
      historyApiFallback: isShell,
      proxy: isShell
        ? {
            '/api': DEV_BACKEND,
            '/ws': { target: DEV_BACKEND, ws: true },
            '/remotes.json': DEV_BACKEND,
            // The Atom feeds and the embeds: the backend's pages, not the app's.
            '/feeds': DEV_BACKEND,
            '/embed': DEV_BACKEND,
          }
        : undefined,
    },
    dev: { lazyCompilation: false },
    tools: {
      rspack: (config) => {
        if (isShell || command !== 'build') return;
        // Module Federation puts its bundler runtime in each remoteEntry.js as CommonJS, so all of it and
        // of its helper library comes along; its ES build is tree-shaken (4 KB gzip less per remote).
        // Not in the shell: the plugin there that hands the runtime to the remotes is CommonJS, and the
        // runtime would be bundled twice.
        const cjs = createRequire(require.resolve('@module-federation/runtime-tools/bundler')).resolve(
          '@module-federation/webpack-bundler-runtime',
        );
        const esm = cjs.replace(/\.cjs$/, '.js');
        if (esm !== cjs && existsSync(esm)) {
          config.resolve ??= {};
          config.resolve.alias = { ...(config.resolve.alias as object), [cjs]: esm };
        }
      },
    },
  }));
}

/**
 * A Web Worker built on its own, after its frontend's build: Module Federation's runtime, which every
 * entry of a frontend's build carries, cannot start in a worker. Self-contained under a fixed name in
 * `jsDir` of dist/, its lazy chunks (highlight.js grammars) in static/worker/async/ under content hashes,
 * fetched on first use with importScripts from the worker's own URL.
 */
export function workerConfig(
  entry: Record<string, string>,
  jsDir: string,
  plugins: RsbuildConfig['plugins'] = [],
) {
  return defineConfig({
    plugins,
    source: { entry },
    output: {
      target: 'web',
      assetPrefix: 'auto',
      cleanDistPath: false,
      distPath: { root: 'dist', js: jsDir, jsAsync: 'static/worker/async' },
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
}
