import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError } from '../errors.js';
import { loadConfigFile, parseConfig, type LoadOptions } from './load.js';
import type { Config } from './schema.js';

interface ReceiversDocument {
  alerts?: { external_url?: unknown; receivers?: unknown };
}

/**
 * Loads only what `test-alert --receiver NAME` uses: that receiver and alerts.external_url, so an
 * unrelated target's or receiver's unset ${ENV} secret does not stop a receiver test. Issue paths
 * keep the receiver's index in the whole file. An unreadable file, a YAML error or an unknown name
 * falls back to loading the whole file, which reports them as check-config does.
 */
export function loadReceiverConfig(file: string, receiverName: string, options: LoadOptions = {}): Config {
  const found = findReceiver(file, receiverName);
  if (!found) return loadConfigFile(file, options);
  const { index, receiver, externalUrl } = found;
  try {
    return parseConfig(JSON.stringify({ alerts: { external_url: externalUrl, receivers: [receiver] } }), options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      error.issues.map((issue) => ({ ...issue, path: issue.path.replace('alerts.receivers[0]', `alerts.receivers[${index}]`) })),
    );
  }
}

function findReceiver(file: string, receiverName: string): { index: number; receiver: unknown; externalUrl: unknown } | undefined {
  let document: ReceiversDocument | null;
  try {
    document = parse(readFileSync(file, 'utf8')) as ReceiversDocument | null;
  } catch {
    return undefined;
  }
  const receivers = document?.alerts?.receivers;
  if (!Array.isArray(receivers)) return undefined;
  const index = receivers.findIndex((receiver) => (receiver as { name?: unknown } | null)?.name === receiverName);
  return index < 0 ? undefined : { index, receiver: receivers[index], externalUrl: document?.alerts?.external_url };
}
