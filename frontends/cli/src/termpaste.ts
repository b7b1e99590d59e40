#!/usr/bin/env node
// The `termpaste` command (package.json's bin).
import { main } from './cli.js';

// A reader that stops early (`termpaste get 42 | head`) closes the pipe: end quietly, as cat does.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await main(process.argv);
