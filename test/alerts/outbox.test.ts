import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Outbox, type NewNotification } from '../../src/alerts/dispatch/outbox.js';
import { WriteFailures } from '../../src/alerts/state/write-failures.js';
import { captureStream } from '../helpers/stack.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function notification(receiver: string, fingerprint: string, key: string): NewNotification {
  return {
    receiver,
    fingerprint,
    key,
    reminder: false,
    alert: {
      fingerprint,
      status: 'firing',
      labels: { alertname: 'X', target: fingerprint },
      annotations: {},
      startsAt: new Date(T0).toISOString(),
    },
  };
}

function openOutbox(maxQueued = 10_000) {
  const stateDir = mkdtempSync(join(tmpdir(), 'avaxmon-outbox-'));
  const lines: string[] = [];
  const log = pino({ level: 'info' }, captureStream(lines));
  return { stateDir, lines, outbox: new Outbox(stateDir, log, new WriteFailures(log), maxQueued) };
}

const files = (stateDir: string) => readdirSync(join(stateDir, 'outbox')).sort();

describe('outbox', () => {
  it('writes a batch durably with no temporary files left, and restores it in order', () => {
    const { stateDir, outbox } = openOutbox();
    outbox.enqueue(
      Array.from({ length: 20 }, (_, index) => notification('hook', `alert-${index}`, `k-${index}`)),
      T0,
    );
    expect(files(stateDir)).toHaveLength(20);
    expect(files(stateDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const restored = new Outbox(stateDir, pino({ level: 'silent' }));
    expect(restored.heads().map((entry) => entry.key)).toEqual(Array.from({ length: 20 }, (_, index) => `k-${index}`));
  });

  it("hands the sender each lane's head, and the next one of a lane once the head is done", () => {
    const { outbox } = openOutbox();
    const [a1, , b1] = outbox.enqueue(
      [notification('hook', 'a', 'a-1'), notification('hook', 'a', 'a-2'), notification('hook', 'b', 'b-1')],
      T0,
    );
    expect(outbox.heads().map((entry) => entry.key)).toEqual(['a-1', 'b-1']);
    outbox.remove(a1, true, T0);
    // Lanes keep the order they were opened in: a's lane first.
    expect(outbox.heads().map((entry) => entry.key)).toEqual(['a-2', 'b-1']);
    outbox.remove(b1, true, T0);
    expect(outbox.heads().map((entry) => entry.key)).toEqual(['a-2']);
  });

  it('keeps lanes in the order they were opened, whatever their heads were queued after', () => {
    const { outbox } = openOutbox();
    const [a1] = outbox.enqueue([notification('hook', 'a', 'a-1'), notification('hook', 'b', 'b-1')], T0);
    outbox.enqueue([notification('hook', 'a', 'a-2')], T0 + 1);
    outbox.remove(a1, true, T0 + 2);
    expect(outbox.heads().map((entry) => entry.key)).toEqual(['a-2', 'b-1']);
  });

  it('past max_queued drops the oldest, counts each by receiver and logs the burst once', () => {
    const { stateDir, lines, outbox } = openOutbox(3);
    outbox.enqueue([notification('hook', 'a', 'k-1'), notification('slack', 'b', 'k-2')], T0);
    outbox.enqueue([notification('hook', 'c', 'k-3'), notification('hook', 'd', 'k-4'), notification('hook', 'e', 'k-5')], T0 + 1);
    expect(outbox.entries().map((entry) => entry.key)).toEqual(['k-3', 'k-4', 'k-5']);
    expect(files(stateDir)).toHaveLength(3);
    expect(outbox.dropped.samples()).toEqual([
      { name: 'avaxmon_notifications_dropped_total', labels: { receiver: 'hook', reason: 'outbox_full' }, value: 1 },
      { name: 'avaxmon_notifications_dropped_total', labels: { receiver: 'slack', reason: 'outbox_full' }, value: 1 },
    ]);
    outbox.enqueue([notification('hook', 'f', 'k-6')], T0 + 2);
    expect(lines.filter((line) => line.includes('Outbox full'))).toHaveLength(1);
  });
});
