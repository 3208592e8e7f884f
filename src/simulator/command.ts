import type { CliOptions } from '../cli/args.js';
import { loadScenario } from './scenario.js';
import { startSimulator, type Simulator } from './server.js';

/**
 * `avaxmon simulate --port N --scenario FILE|NAME [--peers N] [--validators N] [--nodes N] [--cache-answers]`.
 * With `--nodes N`, N independent nodes listen on consecutive ports from --port (a fleet for
 * benchmarks and scale tests from one process); with `--cache-answers` each keeps the serialized
 * answers that do not move with time and its health reports for a health-check period, so a large
 * fleet on one core answers about as fast as nodes do.
 */
export async function runSimulatorCommand(options: CliOptions): Promise<void> {
  const values = options.values;
  const nodes = values.nodes === undefined ? 1 : Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`--nodes must be a positive integer, got "${values.nodes}"`);
  const firstPort = values.port === undefined ? 9650 : Number(values.port);
  const simulators: Simulator[] = [];
  for (let index = 0; index < nodes; index++) {
    simulators.push(
      await startSimulator({
        host: String(values.host ?? '127.0.0.1'),
        port: firstPort === 0 ? 0 : firstPort + index,
        scenario: values.scenario ? loadScenario(String(values.scenario)) : undefined,
        peers: values.peers === undefined ? undefined : Number(values.peers),
        validators: values.validators === undefined ? undefined : Number(values.validators),
        cacheAnswers: values['cache-answers'] === true,
      }),
    );
  }
  const urls = simulators.map((simulator) => simulator.url);
  process.stdout.write(
    nodes === 1
      ? `avaxmon simulator listening on ${urls[0]}\n`
      : `avaxmon simulator: ${nodes} nodes listening on ${urls[0]} .. ${urls.at(-1)}\n`,
  );
  const stop = () => void Promise.all(simulators.map((simulator) => simulator.close())).then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await new Promise(() => {});
}
