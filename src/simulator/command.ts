import type { CliOptions } from '../cli/args.js';
import { loadScenario } from './scenario.js';
import { startSimulator } from './server.js';

/** `avaxmon simulate --port N --scenario FILE|NAME [--peers N] [--validators N]`. */
export async function runSimulatorCommand(options: CliOptions): Promise<void> {
  const values = options.values;
  const simulator = await startSimulator({
    host: String(values.host ?? '127.0.0.1'),
    port: values.port === undefined ? 9650 : Number(values.port),
    scenario: values.scenario ? loadScenario(String(values.scenario)) : undefined,
    peers: values.peers === undefined ? undefined : Number(values.peers),
    validators: values.validators === undefined ? undefined : Number(values.validators),
  });
  process.stdout.write(`avaxmon simulator listening on ${simulator.url}\n`);
  const stop = () => void simulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await new Promise(() => {});
}
