import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from './ports.js';
import { requireTool } from './tools.js';

export const DEBIAN_PYTHON = '/usr/bin/python3';
const SINK = new URL('./smtp-sink.py', import.meta.url).pathname;

/** Whether Debian's python3-aiosmtpd is there (its tests skip without it, and fail under CI). */
export function hasAiosmtpd(): boolean {
  return requireTool('/usr/lib/python3/dist-packages/aiosmtpd', 'python3-aiosmtpd') && requireTool(DEBIAN_PYTHON, 'python3');
}

export interface SmtpMessage {
  readonly hello: string;
  readonly login: string | null;
  readonly tls: boolean;
  readonly mail_from: string;
  readonly rcpt_tos: string[];
  /** The message as received: headers, a blank line, the body. */
  readonly data: string;
}

export interface SmtpSink {
  readonly host: string;
  readonly port: number;
  readonly messages: SmtpMessage[];
  waitFor(count: number, timeoutMs?: number): Promise<SmtpMessage[]>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (test/helpers/smtp-sink.py); with `tls`, it requires STARTTLS. */
export async function startSmtpSink(password: string, tls?: { certFile: string; keyFile: string }): Promise<SmtpSink> {
  const port = await freePort();
  const child = spawn(DEBIAN_PYTHON, [SINK, String(port), password, ...(tls ? [tls.certFile, tls.keyFile] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const messages: SmtpMessage[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    // 'close', not 'exit': the error quotes its stderr, whose last lines can arrive after the exit.
    child.once('close', (code) => reject(new Error(`smtp-sink exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const parsed = JSON.parse(line) as SmtpMessage | { ready: number };
      if ('ready' in parsed) resolve();
      else messages.push(parsed);
    });
  });
  await ready;
  return {
    host: '127.0.0.1',
    port,
    messages,
    async waitFor(count, timeoutMs = 30_000) {
      for (const deadline = Date.now() + timeoutMs; messages.length < count; ) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${messages.length}; sink said: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return messages;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A header of a received message, unfolded. */
export function header(message: SmtpMessage, name: string): string | undefined {
  const head = message.data.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((each) => each.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The message after its headers, quoted-printable decoded (the parts' own headers stay). */
export function body(message: SmtpMessage): string {
  return message.data
    .slice(message.data.search(/\r?\n\r?\n/))
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
