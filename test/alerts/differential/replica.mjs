// One avaxmon replica of the HA differential scenario, in its own process so that it can be killed
// with -9: the built alert plane (dist/) loads the config file named by argv[2] and evaluates each
// line of stdin, {samples, nowMs}, as the daemon evaluates a collection round. Every replica and the
// reference side evaluate the same lines, so their alerts start at the same instant.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { AlertPlane } from '../../../dist/alerts/alert-plane.js';
import { parseConfig } from '../../../dist/config/load.js';

const plane = new AlertPlane(parseConfig(readFileSync(process.argv[2], 'utf8')).alerts, pino({ level: 'warn' }, pino.destination(2)));
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const { samples, nowMs } = JSON.parse(line);
  plane.evaluate(samples, nowMs);
}
await plane.stop(0);
