import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Checks waiting beyond this many are refused at once: a flood must not queue without bound. */
const MAX_PENDING = 32;

/**
 * The worker's code: bcrypt compares, one at a time, off the event loop. It also makes the hash an
 * unknown user is checked against, at the highest cost among the configured ones, so an unknown
 * user costs exactly what a known one does. Kept inline (eval) so it runs from src/ and dist/ alike.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
const unknownUserHash = bcrypt.hashSync('avaxmon-unknown-user:' + Math.random(), workerData.rounds);
parentPort.on('message', ({ id, password, hash }) => {
  let ok = false;
  try {
    ok = bcrypt.compareSync(password, hash ?? unknownUserHash) && hash !== null;
  } catch {
    ok = false;
  }
  parentPort.postMessage({ id, ok });
});
`;

export class BcryptBusyError extends Error {
  constructor() {
    super('too many password checks in progress');
  }
}

/** bcrypt on a worker thread, with a bounded queue: a password flood costs one core, never the event loop. */
export class BcryptWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (ok: boolean) => void>();
  private nextId = 0;

  constructor(hashes: readonly string[]) {
    const bcryptPath = createRequire(import.meta.url).resolve('bcryptjs');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath, rounds: maxRounds(hashes) } });
    this.worker.on('message', ({ id, ok }: { id: number; ok: boolean }) => {
      this.pending.get(id)?.(ok);
      this.pending.delete(id);
    });
    this.worker.on('error', () => this.failAll());
    this.worker.unref();
  }

  /** Resolves true when `hash` is set and matches; `hash` undefined checks against the unknown-user hash. */
  compare(password: string, hash: string | undefined): Promise<boolean> {
    if (this.pending.size >= MAX_PENDING) return Promise.reject(new BcryptBusyError());
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ id, password, hash: hash ?? null });
    });
  }

  async close(): Promise<void> {
    this.failAll();
    await this.worker.terminate();
  }

  private failAll(): void {
    for (const resolve of this.pending.values()) resolve(false);
    this.pending.clear();
  }
}

/** The cost factor of "$2y$12$..." hashes; 10 when none parses. */
function maxRounds(hashes: readonly string[]): number {
  const rounds = hashes.map((hash) => Number(/^\$2[abxy]?\$(\d{2})\$/.exec(hash)?.[1])).filter((value) => value >= 4 && value <= 31);
  return rounds.length > 0 ? Math.max(...rounds) : 10;
}
