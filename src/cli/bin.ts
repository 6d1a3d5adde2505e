#!/usr/bin/env node
// Kept tiny so start-up stays fast: everything else is imported by the command that needs it.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
