// Sends HTTP requests with their paths exactly as written (no URL normalization, unlike fetch):
// `%73ilences`, `/./`, `//` reach the server as an attacker would send them. Run by attacker-host.ts
// inside a network namespace; reads {host, port, requests} as JSON on stdin, prints the answers as JSON.
import { request } from 'node:http';

const BODY_LIMIT = 64 * 1024;

function send(host, port, { method, path, headers = {}, body }) {
  return new Promise((resolve) => {
    let req;
    try {
      req = request({ host, port, method, path, headers });
    } catch (error) {
      resolve({ headers: {}, body: '', error: error.message });
      return;
    }
    req.setTimeout(10_000, () => req.destroy(new Error('timed out after 10 s')));
    req.on('error', (error) => resolve({ headers: {}, body: '', error: error.message }));
    req.on('response', (response) => {
      const chunks = [];
      let size = 0;
      response.on('data', (chunk) => {
        size += chunk.length;
        if (size <= BODY_LIMIT) chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', (error) => resolve({ headers: {}, body: '', error: error.message }));
    });
    req.end(body);
  });
}

const input = JSON.parse(
  await new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  }),
);
const answers = [];
for (const each of input.requests) answers.push(await send(input.host, input.port, each));
process.stdout.write(JSON.stringify(answers));
