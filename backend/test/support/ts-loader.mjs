// Node loader hooks for jest's global setup only: jest transpiles globalSetup to CommonJS, which cannot
// load our ESM TypeScript (`.js` specifiers, import.meta), so the setup imports it natively through these.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from '@swc/core';
import preset from '../../../jest.preset.cjs';

const [, swcOptions] = preset.swc('es6');
const contractsSource = new URL('../../../contracts/src/index.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@termpaste/contracts') return { url: contractsSource, shortCircuit: true };
  if (context.parentURL?.endsWith('.ts') && /^\.{1,2}\/.*\.js$/.test(specifier)) {
    const url = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const { code } = await transform(await readFile(filename, 'utf8'), {
    ...swcOptions,
    filename,
    sourceMaps: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
