import { PAGERDUTY_EVENTS_URL } from '../alerts/dispatch/notify/receivers/pagerduty.js';
import { TELEGRAM_API_URL } from '../alerts/dispatch/notify/receivers/telegram.js';
import { transportOf, type HttpTransport } from './http-config-schema.js';
import type { ReceiverConfig } from './alerts-schema.js';
import type { Config } from './schema.js';

/**
 * Every origin the config names with its tls_config / proxy_url: a target's (and its subnets' RPC
 * URLs, which are on the same node), each public API's and each receiver's. HttpClient looks the
 * transport up by origin, so no client has to carry it per request.
 */
export function transportsOf(config: Config): Map<string, HttpTransport> {
  const transports = new Map<string, HttpTransport>();
  const add = (url: string | undefined, transport: HttpTransport | undefined) => {
    if (url !== undefined && transport !== undefined) transports.set(new URL(url).origin, transport);
  };
  for (const target of config.targets) {
    const transport = transportOf(target);
    add(target.url, transport);
    for (const subnet of target.subnets) add(subnet.rpc_url, transport);
  }
  if (config.metrics_api) add(config.metrics_api.url, transportOf(config.metrics_api));
  if (config.data_api) add(config.data_api.url, transportOf(config.data_api));
  for (const [origin, transport] of receiverTransports(config.alerts?.receivers ?? [])) transports.set(origin, transport);
  return transports;
}

/** The receivers' part: their URLs, and the API a telegram or pagerduty receiver posts to. */
export function receiverTransports(receivers: readonly ReceiverConfig[]): Map<string, HttpTransport> {
  const transports = new Map<string, HttpTransport>();
  for (const receiver of receivers) {
    // Prometheus reaches the token URL through the oauth2 block's own tls_config and proxy_url.
    if (receiver.oauth2?.transport) transports.set(new URL(receiver.oauth2.tokenUrl).origin, receiver.oauth2.transport);
    if (receiver.transport === undefined) continue;
    const defaultApi = receiver.type === 'telegram' ? TELEGRAM_API_URL : receiver.type === 'pagerduty' ? PAGERDUTY_EVENTS_URL : undefined;
    for (const url of [...receiver.urls, receiver.apiUrl ?? defaultApi])
      if (url !== undefined) transports.set(new URL(url).origin, receiver.transport);
  }
  return transports;
}
