import { describe, expect, it } from 'vitest';
import { compareAlertLabels, labelsFingerprint } from '../../src/alerts/dispatch/notify/receivers/alertmanager-identity.js';

describe("Alertmanager's identities", () => {
  it('fingerprints a label set as Alertmanager 0.25 does (value read from its API for the same alert)', () => {
    expect(labelsFingerprint({ alertname: 'AvalancheNodeUnhealthy', target: 'validator-1', severity: 'critical' })).toBe(
      'b7292a05b337123a',
    );
    // Key order does not matter; severity is part of the identity.
    expect(labelsFingerprint({ severity: 'critical', target: 'validator-1', alertname: 'AvalancheNodeUnhealthy' })).toBe(
      'b7292a05b337123a',
    );
    expect(labelsFingerprint({ alertname: 'AvalancheNodeUnhealthy', target: 'validator-1', severity: 'warning' })).not.toBe(
      'b7292a05b337123a',
    );
    expect(labelsFingerprint({})).toBe('cbf29ce484222325');
  });

  it('orders alerts as Alertmanager sorts a group: job, instance, then fewer labels, then label by label', () => {
    const alerts: Array<Record<string, string>> = [
      { alertname: 'A', target: 'node-b' },
      { alertname: 'A', target: 'node-a', chain: 'C' },
      { alertname: 'A', target: 'node-a' },
      { alertname: 'A', instance: 'x:1', target: 'node-z' },
    ];
    expect([...alerts].sort(compareAlertLabels)).toEqual([
      { alertname: 'A', instance: 'x:1', target: 'node-z' },
      { alertname: 'A', target: 'node-a' },
      { alertname: 'A', target: 'node-b' },
      { alertname: 'A', target: 'node-a', chain: 'C' },
    ]);
  });
});
