// For bench/fleet.mjs: serves the same series two other ways, given the daemon's /metrics text:
//   /promclient - prom-client rendering them on every scrape (registry.metrics(), gzip per scrape)
//   /plain      - a plain node:http server sending the same bytes (and their gzip) from memory
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Gauge, Registry } from 'prom-client';

const text = await new Promise((resolve) => process.once('message', resolve));
const gzipped = gzipSync(text, { level: 1 });

const registry = new Registry();
const gauges = new Map();
for (const line of text.split('\n')) {
  if (line === '' || line.startsWith('#')) continue;
  const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
  if (!match) continue;
  const [, name, labelText = '', value] = match;
  const labels = Object.fromEntries(
    [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, raw]) => [
      key,
      raw.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c)),
    ]),
  );
  let gauge = gauges.get(name);
  if (!gauge) gauges.set(name, (gauge = new Gauge({ name, help: name, labelNames: Object.keys(labels), registers: [registry] })));
  try {
    gauge.set(labels, Number(value));
  } catch {
    // a family whose series carry different label sets: prom-client needs one set; skip the odd ones
  }
}

const wantsGzip = (request) => /gzip/.test(request.headers['accept-encoding'] ?? '');
const promclient = createServer(async (request, response) => {
  if (request.url === '/cpu') return response.end(JSON.stringify(process.cpuUsage()));
  const body = await registry.metrics();
  if (wantsGzip(request))
    return response.writeHead(200, { 'content-type': registry.contentType, 'content-encoding': 'gzip' }).end(gzipSync(body));
  response.writeHead(200, { 'content-type': registry.contentType }).end(body);
});
const plain = createServer((request, response) => {
  if (wantsGzip(request)) return response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipped);
  response.writeHead(200, { 'content-type': 'text/plain' }).end(text);
});
await Promise.all([promclient, plain].map((server) => new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))));
process.send({
  promclient: `http://127.0.0.1:${promclient.address().port}/metrics`,
  plain: `http://127.0.0.1:${plain.address().port}/metrics`,
  series: [...gauges.values()].length,
});
