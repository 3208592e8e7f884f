#!/usr/bin/env node
/**
 * The `avaxmon` executable. The daemon re-executes itself with its process settings (see
 * runtime/process-settings.ts); doing so before the commands' modules load means its start loads them once,
 * not twice.
 */
// First: refuses an unsupported Node.js before anything else loads.
import './runtime/require-node.js';
import { parseCli } from './cli/args.js';
import { applyProcessSettings } from './runtime/process-settings.js';

if (runsTheDaemon(process.argv.slice(2))) applyProcessSettings();
await import('./cli/commands.js');

function runsTheDaemon(argv: string[]): boolean {
  try {
    return parseCli(argv).command === 'run';
  } catch {
    // commands.js reports the usage error.
    return false;
  }
}
