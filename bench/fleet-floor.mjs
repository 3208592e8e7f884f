// The floor of the fleet benchmark: the same requests the daemon made, to the same nodes, at the same
// rate, with undici keep-alive pools and JSON.parse, and nothing else. What avaxmon costs beyond this
// is its own work (parsing into series, rules, rendering). Started by bench/fleet-real.mjs with
// `{ plan: [{ origin, path, body?, count }], windowS }` over IPC; answers `{ requests, failures }`.
import { Pool } from 'undici';

process.send('ready');
process.once('message', async ({ plan, windowS }) => {
  const pools = new Map();
  const pool = (origin) => {
    if (!pools.has(origin)) pools.set(origin, new Pool(origin, { connections: 4 }));
    return pools.get(origin);
  };
  let requests = 0;
  let failures = 0;
  const one = async ({ origin, path, body }) => {
    try {
      const response = await pool(origin).request({
        method: body ? 'POST' : 'GET',
        path,
        headers: body ? { 'content-type': 'application/json' } : {},
        body,
      });
      JSON.parse(await response.body.text());
      requests++;
    } catch {
      failures++;
    }
  };
  const startedMs = performance.now();
  const inFlight = [];
  for (const entry of plan) {
    // Spread evenly over the window, each request at its own offset, as a schedule spreads runs.
    const spacingMs = (windowS * 1000) / entry.count;
    const offsetMs = Math.random() * spacingMs;
    for (let index = 0; index < entry.count; index++) {
      inFlight.push(new Promise((resolve) => setTimeout(resolve, offsetMs + index * spacingMs)).then(() => one(entry)));
    }
  }
  await Promise.all(inFlight);
  const elapsedS = (performance.now() - startedMs) / 1000;
  // Alive (idle, as the daemon between runs) until the window the parent watches is over.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, windowS - elapsedS) * 1000 + 2000));
  process.send({ requests, failures, elapsedS });
  await Promise.all([...pools.values()].map((each) => each.close()));
  process.exit(0);
});
