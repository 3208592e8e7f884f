import { createHash } from 'node:crypto';
import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import type { OpsgenieFields, OpsgenieResponder } from '../../../../config/opsgenie-schema.js';
import { defaultOpsgenieDescription, defaultSubject, truncateInRunes } from './alertmanager-text.js';
import { alertmanagerGroupKey, alertsOf, common, groupStatus, type OutgoingGroup } from './group.js';
import { postJson, type JsonPost, type Receiver, type SendContext, type SendResult } from './receiver.js';

/** Opsgenie's alert API takes a message of at most 130 characters. */
const MAX_MESSAGE_RUNES = 130;

/**
 * Opsgenie's Alert API v2, as Alertmanager's opsgenie integration calls it: one Opsgenie alert per
 * group, its alias the SHA-256 of Alertmanager's groupKey, so an alert created by Alertmanager is
 * the one avaxmon closes after a migration. A firing group creates (Opsgenie deduplicates by alias),
 * a resolved one closes; with update_alerts, the open alert's message and description follow.
 */
export function createOpsgenieReceiver(config: ReceiverConfig): Receiver {
  return {
    config,
    async send(group, ctx) {
      for (const request of opsgenieRequests(config, group, ctx.externalUrl)) {
        const result = await postJson(ctx, config, {
          ...request,
          headers: { authorization: `GenieKey ${config.apiKey}` },
        });
        if (result.outcome !== 'delivered') return result;
      }
      return { outcome: 'delivered' } satisfies SendResult;
    },
  };
}

/** The hash Alertmanager's opsgenie (and Pushover, VictorOps) integrations key their alerts by. */
function opsgenieAlias(config: Pick<ReceiverConfig, 'routeKey'>, group: Pick<OutgoingGroup, 'groupLabels'>): string {
  return createHash('sha256').update(alertmanagerGroupKey(config.routeKey, group)).digest('hex');
}

/** The requests one notification of the group makes, in order. */
function opsgenieRequests(config: ReceiverConfig, group: OutgoingGroup, externalUrl: SendContext['externalUrl']): JsonPost[] {
  const fields = config.opsgenie!;
  const alias = opsgenieAlias(config, group);
  const endpoint = (path: string, byAlias: boolean) => {
    // Appended to the path as Alertmanager does, so a query string in api_url stays.
    const url = new URL(config.apiUrl!);
    url.pathname += `v2/alerts${path}`;
    if (byAlias) url.searchParams.set('identifierType', 'alias');
    return url.toString();
  };
  // Alertmanager's default source is a link to its own alert list; avaxmon's status page stands in.
  const source = fields.source ?? externalUrl ?? 'avaxmon';
  const alerts = alertsOf(group);
  if (groupStatus(alerts) === 'resolved') return [{ url: endpoint(`/${alias}/close`, true), body: JSON.stringify({ source }) }];
  const message = truncateInRunes(fields.message ?? defaultSubject(group), MAX_MESSAGE_RUNES);
  const description = fields.description ?? defaultOpsgenieDescription(group);
  const create = {
    alias,
    message,
    ...(description ? { description } : {}),
    details: { ...common(alerts.map((alert) => alert.labels)), ...fields.details },
    source,
    ...nonEmpty('responders', responders(fields.responders)),
    ...nonEmpty('tags', splitList(fields.tags)),
    ...(fields.note ? { note: fields.note } : {}),
    ...(fields.priority ? { priority: fields.priority } : {}),
    ...(fields.entity ? { entity: fields.entity } : {}),
    ...nonEmpty('actions', splitList(fields.actions)),
  };
  return [
    { url: endpoint('', false), body: JSON.stringify(create) },
    ...(fields.updateAlerts ? updates(endpoint, alias, message, description) : []),
  ];
}

function updates(endpoint: (path: string, byAlias: boolean) => string, alias: string, message: string, description: string): JsonPost[] {
  return [
    { method: 'PUT', url: endpoint(`/${alias}/message`, true), body: JSON.stringify(message ? { message } : {}) },
    { method: 'PUT', url: endpoint(`/${alias}/description`, true), body: JSON.stringify(description ? { description } : {}) },
  ];
}

/** A `teams` responder names several teams, comma-separated: one team responder each. */
function responders(list: OpsgenieFields['responders']): OpsgenieResponder[] {
  return list.flatMap((responder): OpsgenieResponder[] =>
    responder.type === 'teams'
      ? splitList(responder.name).map((name) => ({ name, type: 'team' }))
      : [
          {
            ...(responder.id ? { id: responder.id } : {}),
            ...(responder.name ? { name: responder.name } : {}),
            ...(responder.username ? { username: responder.username } : {}),
            type: responder.type,
          },
        ],
  );
}

/** Alertmanager's safeSplit: the trimmed text split at commas, empty items left out (the others keep their spaces). */
function splitList(text: string | undefined): string[] {
  return (text ?? '')
    .trim()
    .split(',')
    .filter((item) => item !== '');
}

const nonEmpty = <K extends string, T>(key: K, list: T[]) => (list.length > 0 ? ({ [key]: list } as Record<K, T[]>) : {});
