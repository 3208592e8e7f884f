// The simulated fleet the fleet benchmarks measure against: `nodes` Mainnet-sized nodes on
// consecutive ports below Linux's ephemeral range (32768 up), tried again elsewhere if taken,
// optionally pinned to one CPU (the daemon measured on the other). SIMULATOR_NODE (a node binary;
// the benchmark's own by default) keeps the simulator on one Node.js while the daemon is measured on
// another: its HTTP server is the nodes', not what is measured.
import { execFileSync, spawn } from 'node:child_process';

const main = new URL('../dist/main.js', import.meta.url).pathname;
const simulatorNode = process.env.SIMULATOR_NODE ?? process.execPath;
/** The simulator's Node.js version, for a benchmark's report. */
export const simulatorNodeVersion = process.env.SIMULATOR_NODE
  ? execFileSync(simulatorNode, ['--version'], { encoding: 'utf8' }).trim()
  : process.version;

/**
 * Nodes per simulator process. Mainnet-sized nodes take 2.5-3.5 MB of heap each, and one process
 * for 2,000 of them held 5-7 GB: each of its full collections marked for 6-8 s on its one core and
 * every node answered late at once (health probes took up to 10 s), which no real fleet does and
 * which the daemon measured rightly counted as lagging. Processes of this many nodes share the
 * core, and each stalls shorter and alone.
 */
const NODES_PER_PROCESS = 250;

/** Resolves to the simulator's processes and the first port; the nodes listen on consecutive ports from it. */
export async function startFleetSimulator({ nodes, peers = 1800, validators = 1500, cpu }) {
  for (let attempt = 0; attempt < 6; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (22_000 - nodes));
    const shards = [];
    for (let first = 0; first < nodes; first += NODES_PER_PROCESS)
      shards.push(startProcess({ nodes: Math.min(NODES_PER_PROCESS, nodes - first), port: port + first, peers, validators, cpu }));
    const started = await Promise.all(shards);
    const processes = started.map(({ sim }) => sim);
    if (started.every(({ listening }) => listening)) return { processes, port };
    for (const sim of processes) sim.kill('SIGKILL');
  }
  throw new Error('no free range of ports for the simulator');
}

async function startProcess({ nodes, port, peers, validators, cpu }) {
  const args = [
    simulatorNode,
    // Mainnet-sized nodes take gigabytes of simulator state; it is not what is measured.
    '--max-old-space-size=16384',
    main,
    'simulate',
    '--nodes',
    String(nodes),
    '--port',
    String(port),
    '--validators',
    String(validators),
    '--peers',
    String(peers),
    // Answers that do not move with time are serialized once, as a node serves them from memory:
    // the simulator, on its own core, must not be what limits a 2,000-node fleet.
    '--cache-answers',
  ];
  const sim =
    cpu === undefined
      ? spawn(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] })
      : spawn('taskset', ['-c', String(cpu), ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  const listening = await new Promise((resolve) => {
    sim.stdout.on('data', (chunk) => /listening/.test(String(chunk)) && resolve(true));
    sim.once('exit', () => resolve(false));
  });
  return { sim, listening };
}
