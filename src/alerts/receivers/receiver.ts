import type { HttpClient } from '../../clients/http.js';
import type { ReceiverConfig } from '../../config/alerts-schema.js';
import { retryAfterMs } from '../../clients/retry-after.js';
import { UpstreamError } from '../../errors.js';
import type { AlertPayload } from '../alert.js';

export interface OutgoingNotification {
  readonly receiver: string;
  readonly key: string;
  readonly reminder: boolean;
  readonly alert: AlertPayload;
}

/** How one delivery attempt ended; `retry` failures are attempted again, `rejected` ones are not. */
export type SendResult =
  | { readonly outcome: 'delivered' }
  | { readonly outcome: 'retry' | 'rejected'; readonly error: string; readonly retryAfterMs?: number };

export interface SendContext {
  readonly http: HttpClient;
  readonly nowMs: number;
}

export interface Receiver {
  readonly config: ReceiverConfig;
  send(notification: OutgoingNotification, ctx: SendContext): Promise<SendResult>;
}

export interface JsonPost {
  readonly url: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * POSTs JSON and classifies the answer: 2xx delivered; 408, 429 and 5xx retried (honouring
 * Retry-After); other 4xx rejected, since sending the same payload again cannot succeed.
 */
export async function postJson(ctx: SendContext, config: ReceiverConfig, post: JsonPost): Promise<SendResult> {
  try {
    const response = await ctx.http.request({
      url: post.url,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'avaxmon', ...post.headers },
      body: post.body,
      timeoutMs: config.timeoutMs,
      upstream: `receiver ${config.name}`,
      operation: 'notify',
    });
    if (response.status >= 200 && response.status < 300) return { outcome: 'delivered' };
    const error = `HTTP ${response.status}: ${response.text.slice(0, 200)}`;
    const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
    const retryAfter = retryAfterMs(response.headers['retry-after'], ctx.nowMs) ?? bodyRetryAfter(response.text);
    return { outcome: retryable ? 'retry' : 'rejected', error, retryAfterMs: retryAfter };
  } catch (error) {
    if (error instanceof UpstreamError) return { outcome: 'retry', error: error.message };
    throw error;
  }
}

/** Telegram puts its back-off in the body: {"parameters":{"retry_after":N}}. */
function bodyRetryAfter(text: string): number | undefined {
  try {
    const seconds = (JSON.parse(text) as { parameters?: { retry_after?: unknown } }).parameters?.retry_after;
    return typeof seconds === 'number' ? seconds * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export const SEVERITY_ICON: Readonly<Record<string, string>> = { critical: '🔴', warning: '🟠', info: '🔵' };

/** One line naming the alert, shared by the chat receivers. */
export function headline(notification: OutgoingNotification): string {
  const { alert } = notification;
  const state = alert.status === 'resolved' ? '✅ RESOLVED' : `${SEVERITY_ICON[alert.labels.severity] ?? ''} ${alert.labels.severity.toUpperCase()}`;
  const reminder = notification.reminder ? ' (reminder)' : '';
  return `${state.trim()}${reminder}: ${alert.labels.alertname} on ${alert.labels.target ?? 'avaxmon'}`;
}

/** The rule's own labels (not alertname, severity or target), as "key=value" pairs. */
export function extraLabels(alert: AlertPayload): Array<[string, string]> {
  return Object.entries(alert.labels).filter(([key]) => !['alertname', 'severity', 'target'].includes(key));
}
