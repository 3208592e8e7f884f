// The simulator for bench/validators.mjs, in its own process so its CPU is not counted.
import { startSimulator } from '../dist/simulator/server.js';

const simulator = await startSimulator({ validators: Number(process.argv[2] ?? 2000) });
process.send(simulator.url);
process.on('disconnect', () => simulator.close().then(() => process.exit(0)));
