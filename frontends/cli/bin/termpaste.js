#!/usr/bin/env node
// The `termpaste` command (package.json's bin): the built CLI in dist/. This file is there before any
// build, so `npm install` in a checkout links the command (npm links no bin whose file is missing), and
// `npx termpaste` runs it once `npm run build` (or `npm start`) has built it.
import { existsSync } from 'node:fs';

const built = new URL('../dist/termpaste.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('termpaste: not built yet: run `npm run build` in the Termpaste checkout first\n');
  process.exitCode = 1;
} else {
  await import(built.href);
}
