import { pino, type Logger } from 'pino';
import { AvaxmonError } from '../errors.js';
import { scrubSecrets } from '../config/redact.js';

export type LogFormat = 'json' | 'logfmt';
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The root logger, on stderr as Prometheus and its exporters log (stdout stays for what a command
 * prints: `collect`'s exposition, `--help`). Every serialized line passes through the secret scrubber, and known
 * secret-bearing fields are redacted by path as well, so a secret needs two mistakes to leak.
 * Scrubbing the finished line (not the arguments) keeps errors' types, stacks and fields intact.
 */
export function createLogger(level: LogLevel = 'info', format: LogFormat = 'json', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'avaxmon' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['headers.*', '*.headers.*', 'api_key', '*.api_key', 'token', '*.token'],
        censor: '<redacted>',
      },
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
    },
    scrubbing(destination ?? (format === 'logfmt' ? logfmtStream() : fdDestination(2))),
  );
}

/**
 * Log lines to stdout or stderr through Node's own stream (synchronous for files, pipes and
 * terminals on Linux), never pino's sonic-boom: on a closed pipe that retried its unwritten lines
 * forever at exit. A closed pipe is then an 'error' on the stream, handled in broken-pipe.ts.
 */
export function fdDestination(fd: 1 | 2): pino.DestinationStream {
  const stream = fd === 1 ? process.stdout : process.stderr;
  return {
    write: (line: string) => {
      if (stream.writable) stream.write(line);
    },
  };
}

function scrubbing(destination: pino.DestinationStream): pino.DestinationStream {
  return { write: (line: string) => destination.write(scrubSecrets(line)) };
}

/** A minimal logfmt writer for operators who read logs in a terminal. */
function logfmtStream(): pino.DestinationStream {
  return {
    write(line: string) {
      const record = JSON.parse(line) as Record<string, unknown>;
      const pairs = Object.entries(record).map(([key, value]) => `${key}=${logfmtValue(value)}`);
      if (process.stderr.writable) process.stderr.write(`${pairs.join(' ')}\n`);
    },
  };
}

function logfmtValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

/** Expected failures (an upstream down, a bad config) need their message and code, not a stack. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof AvaxmonError)) return pino.stdSerializers.err(error as Error);
  const { stack: _stack, ...fields } = pino.stdSerializers.err(error);
  // Its message already says what the cause meant (pino would append the raw cause, an OpenSSL record).
  return { ...fields, message: error.message };
}
