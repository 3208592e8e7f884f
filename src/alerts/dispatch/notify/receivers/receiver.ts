import type { HttpClient } from '../../../../clients/http.js';
import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import { retryAfterMs } from '../../../../clients/retry-after.js';
import { UpstreamError } from '../../../../errors.js';
import type { AlertPayload } from '../payload.js';
import type { OutgoingGroup, OutgoingNotification } from './group.js';
import { TokenError, tokenSourceOf } from './oauth2-token.js';

/** How one delivery attempt ended; `retry` failures are attempted again, `rejected` ones are not. */
export type SendResult =
  | { readonly outcome: 'delivered' }
  | { readonly outcome: 'retry' | 'rejected'; readonly error: string; readonly retryAfterMs?: number };

export interface SendContext {
  readonly http: HttpClient;
  readonly nowMs: number;
  /** avaxmon's public URL (alerts.external_url), for links back to it. */
  readonly externalUrl?: string;
}

/** Renders a group of notifications into one request (PagerDuty: one event per alert) within the receiver's limits. */
export interface Receiver {
  readonly config: ReceiverConfig;
  send(group: OutgoingGroup, ctx: SendContext): Promise<SendResult>;
}

export interface JsonPost {
  readonly url: string;
  /** POST unless set (Opsgenie updates an alert with PUT). */
  readonly method?: 'POST' | 'PUT';
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * POSTs JSON and classifies the answer: 2xx delivered; 408, 429 and 5xx retried (honouring
 * Retry-After); other 4xx rejected, since sending the same payload again cannot succeed.
 */
export async function postJson(ctx: SendContext, config: ReceiverConfig, post: JsonPost): Promise<SendResult> {
  try {
    const authorization = config.oauth2
      ? await tokenSourceOf(config.oauth2).authorization(ctx.http, ctx.nowMs, config.timeoutMs)
      : config.authorization;
    const response = await ctx.http.request({
      url: post.url,
      method: post.method ?? 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'avaxmon',
        ...(authorization === undefined ? {} : { authorization }),
        ...post.headers,
      },
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
    if (error instanceof UpstreamError || error instanceof TokenError) return { outcome: 'retry', error: error.message };
    throw error;
  }
}

/** Telegram puts its back-off in the body as {"parameters":{"retry_after":N}}, Discord as {"retry_after":0.5}; seconds. */
function bodyRetryAfter(text: string): number | undefined {
  try {
    const body = JSON.parse(text) as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
    const seconds = body.parameters?.retry_after ?? body.retry_after;
    return typeof seconds === 'number' && seconds >= 0 ? seconds * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export const SEVERITY_ICON: Readonly<Record<string, string>> = { critical: '🔴', warning: '🟠', info: '🔵' };

/** One line naming the alert, shared by the chat receivers. */
export function headline(notification: OutgoingNotification): string {
  const { alert } = notification;
  const state =
    alert.status === 'resolved' ? '✅ RESOLVED' : `${SEVERITY_ICON[alert.labels.severity] ?? ''} ${alert.labels.severity.toUpperCase()}`;
  const reminder = notification.reminder ? ' (reminder)' : '';
  const flapping = alert.annotations.flapping ? ' (flapping)' : '';
  return `${state.trim()}${reminder}${flapping}: ${alert.labels.alertname} on ${alert.labels.target ?? alert.labels.receiver ?? 'avaxmon'}`;
}

/** The headline of a group: the alert's own for one alert, else the counts by state. */
export function groupHeadline(group: OutgoingGroup): string {
  if (group.notifications.length === 1) return headline(group.notifications[0]);
  const firing = group.notifications.filter((notification) => notification.alert.status === 'firing');
  const worst = ['critical', 'warning', 'info'].find((severity) =>
    firing.some((notification) => notification.alert.labels.severity === severity),
  );
  const name = group.groupLabels.alertname ?? group.notifications[0].alert.labels.alertname;
  const parts = [
    ...(firing.length > 0 ? [`${firing.length} firing`] : []),
    ...(firing.length < group.notifications.length ? [`${group.notifications.length - firing.length} resolved`] : []),
  ];
  const icon = worst ? SEVERITY_ICON[worst] : '✅';
  return `${icon} ${name}: ${parts.join(', ')}`;
}

/** The rule's own labels (not alertname, severity or target), as "key=value" pairs. */
export function extraLabels(alert: AlertPayload): Array<[string, string]> {
  return Object.entries(alert.labels).filter(([key]) => !['alertname', 'severity', 'target'].includes(key));
}
