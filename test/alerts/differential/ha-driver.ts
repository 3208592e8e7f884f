import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { AlertPlane } from '../../../src/alerts/alert-plane.js';
import { parseConfig } from '../../../src/config/load.js';
import type { Sample } from '../../../src/metrics/metric-desc.js';
import { startCluster, type ClusterMember } from '../../helpers/alertmanager-cluster.js';
import type { RealSystem } from '../../helpers/real-systems.js';
import { until } from '../../helpers/until.js';
import { silentLog } from '../harness.js';
import { startRecorder } from '../recorder.js';
import {
  FEED_MS,
  HOOK,
  holdUntil,
  indent,
  postSilence,
  prometheusFeeder,
  type Side,
  side,
  silenceOf,
  startReferenceAlertmanager,
} from './driver.js';

/**
 * The HA topology of docs/scaling.md beside the reference of the differential suite, from one
 * alertmanager.yml text (`route`, `receivers`, `inhibit_rules`, `time_intervals`) and one alert stream:
 *
 * - ours: two avaxmon replicas, each its own process (test/alerts/differential/replica.mjs) with its
 *   own state_dir, evaluating the same samples at the same instants and sending through an
 *   `alertmanager` receiver to both members of a real two-member Alertmanager cluster, whose
 *   route notifies the operator's webhook;
 * - theirs: one real Alertmanager fed the same alerts as Prometheus feeds it (driver.ts).
 */

/**
 * The `alertmanager` receiver re-sends firing alerts this often, endsAt four of these ahead: long
 * beside the steps, so an alert the cluster only let expire would come tens of seconds late.
 */
const RESEND = '10s';

export interface HaDifferential {
  readonly ours: Side & {
    /** The cluster in notification order: members[0] notifies at once, members[1] after the peer timeout. */
    readonly members: readonly ClusterMember[];
    /** For each notification of `notifications()`, the index (ClusterMember.index) of the member that sent it. */
    senders(): number[];
  };
  readonly theirs: Side & { readonly alertmanager: RealSystem };
  /** Both replicas and the reference evaluate `samples` every FEED_MS for `holdMs`; the reference Alertmanager is fed. */
  hold(samples: readonly Sample[], holdMs: number): Promise<void>;
  /** Like hold, until `done` holds; fails after `capMs`. */
  holdUntil(samples: readonly Sample[], done: () => boolean, capMs?: number): Promise<void>;
  /** The same silence posted to one member of the cluster (it gossips to the other) and to the reference. */
  silence(labels: Record<string, string>, durationMs: number, member: ClusterMember): Promise<void>;
  /** kill -9 of replica `index` (0 or 1). */
  killReplica(index: number): Promise<void>;
  close(): Promise<void>;
}

type ReplicaProcess = ChildProcessByStdio<Writable, Readable, Readable>;

const REPLICA = new URL('./replica.mjs', import.meta.url).pathname;

/** `routing`: the alertmanager.yml sections with HOOK_URL for the webhook; `alerts`: avaxmon's rules (under `alerts:`). */
export async function startHaDifferential(routing: string, alerts: string): Promise<HaDifferential> {
  const [ourHook, theirHook] = [await startRecorder(), await startRecorder()];
  const closing: Array<() => Promise<void>> = [() => ourHook.close(), () => theirHook.close()];
  const close = async () => {
    for (const step of closing.reverse()) await step();
  };
  try {
    const alertmanager = await startReferenceAlertmanager(routing, theirHook.url);
    closing.push(() => alertmanager.stop());
    // Each member notifies its own path of the one webhook: the operator's receiver, told which member sent.
    const members = await startCluster((index) => routing.replaceAll(HOOK, `${ourHook.url}/hook/${index}`));
    for (const member of members) closing.push(() => member.stop());
    const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'avaxmon-ha-differential-')));
    closing.push(async () => {
      for (const path of dirs.flatMap((dir) => [dir, `${dir}.yaml`])) rmSync(path, { recursive: true, force: true });
    });
    // The reference side's alerts: avaxmon's evaluation of the same samples, with nothing to notify.
    const reference = new AlertPlane(
      parseConfig(`alerts:\n  state_dir: ${dirs[2]}\n  inhibit_rules: []\n${indent(alerts)}\n`).alerts!,
      silentLog,
    );
    closing.push(() => reference.stop(0));
    const replicas = await Promise.all(
      [0, 1].map((index) => startReplica(dirs[index], replicaConfig(dirs[index], alerts, members), closing)),
    );
    const live = new Set(replicas);
    const feed = prometheusFeeder(alertmanager.url, () => reference);

    const differential: HaDifferential = {
      ours: {
        ...side(ourHook),
        members,
        senders: () => ourHook.requests.map((request) => Number(request.path.split('/').at(-1))),
      },
      theirs: { ...side(theirHook), alertmanager },
      async hold(samples, holdMs) {
        for (const end = Date.now() + holdMs; Date.now() < end; ) {
          const nowMs = Date.now();
          reference.evaluate(samples, nowMs);
          const line = `${JSON.stringify({ samples, nowMs })}\n`;
          for (const replica of live) replica.stdin.write(line);
          await feed();
          await new Promise((resolve) => setTimeout(resolve, FEED_MS));
        }
      },
      holdUntil: (samples, done, capMs) => holdUntil(differential.hold, samples, done, capMs),
      async silence(labels, durationMs, member) {
        const posted = silenceOf(labels, durationMs);
        await postSilence(member.url, posted);
        await postSilence(alertmanager.url, posted);
      },
      async killReplica(index) {
        const replica = replicas[index];
        live.delete(replica);
        const exited = new Promise((resolve) => replica.once('exit', resolve));
        replica.kill('SIGKILL');
        await exited;
      },
      close,
    };
    return differential;
  } catch (error) {
    await close();
    throw error;
  }
}

/** A replica's config: the scenario's rules, everything to the cluster at once (the cluster's route groups). */
function replicaConfig(dir: string, alerts: string, members: readonly ClusterMember[]): string {
  return `alerts:
  state_dir: ${dir}
  retry: { initial_backoff: 100ms, max_backoff: 500ms }
  group_wait: 0s
  group_interval: 0s
  inhibit_rules: []
${indent(alerts)}
  receivers:
    - name: cluster
      type: alertmanager
      urls: [${members.map((member) => member.url).join(', ')}]
      repeat_interval: ${RESEND}
`;
}

/** Starts a replica process on `config`, resolved once it reads its stdin; `closing` gets its end. */
async function startReplica(dir: string, config: string, closing: Array<() => Promise<void>>): Promise<ReplicaProcess> {
  // Beside state_dir, not in it: the config is the operator's, not the daemon's state.
  const configFile = `${dir}.yaml`;
  writeFileSync(configFile, config);
  const child = spawn(process.execPath, [REPLICA, configFile], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // A replica killed with -9 leaves its stdin broken; the next write's EPIPE is expected.
  child.stdin.on('error', () => undefined);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The error below quotes its output, whose last lines can arrive after the exit: it waits for 'close'.
  let closed = false;
  child.once('close', () => void (closed = true));
  closing.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  });
  await until(() => {
    if (closed) throw new Error(`replica exited with ${child.exitCode}:\n${output}`);
    return output.includes('ready\n');
  }, 60_000);
  return child;
}
