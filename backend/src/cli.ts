#!/usr/bin/env node
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { runCli } from './cli/admin-cli.js';

// Only problems from the layers below (migrations run quietly); the CLI prints its own results.
Logger.overrideLogger(['warn', 'error']);
// `npm run admin` runs in backend/: relative paths (DATA_DIR=./.data) mean where npm was started, as for npm start.
process.exit(await runCli(process.argv.slice(2), { cwd: process.env.INIT_CWD ?? process.cwd() }));
