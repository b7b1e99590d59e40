#!/usr/bin/env node
// The `termpaste` command (package.json's bin).
import { main } from './cli.js';

process.exitCode = await main(process.argv);
