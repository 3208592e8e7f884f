import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook receiver for the demo: prints one line per alert it is sent, so alerts visibly fire and resolve. */
export async function startWebhookSink(print: (line: string) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          alerts: Array<{ status: string; labels: Record<string, string>; annotations: Record<string, string> }>;
        };
        for (const alert of body.alerts)
          print(`webhook:    ${alert.status} ${alert.labels.alertname} (${alert.labels.severity}) ${alert.annotations.summary}`);
      } catch {
        print('webhook:    unreadable notification');
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}
