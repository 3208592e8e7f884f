import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../src/errors.js';
import { createLogger } from '../src/runtime/log.js';
import { registerSecret } from '../src/config/redact.js';
import { captureStream } from './helpers/stack.js';

describe('logger', () => {
  it('scrubs secrets from the finished line, keeping the error type, fields and stack', () => {
    registerSecret('hunter2-token');
    registerSecret('quote"secret');
    const lines: string[] = [];
    const log = createLogger('info', 'json', captureStream(lines));
    const error = new UpstreamError('node-a', 'info.peers', 'http_4xx', 'HTTP 401: bad token hunter2-token');
    log.warn({ err: error, header: 'Bearer hunter2-token', other: 'has quote"secret inside' }, 'Collection failed for hunter2-token');
    log.error({ err: new TypeError('boom') }, 'Job failed unexpectedly');
    const [warning, unexpected] = lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(lines.join('\n')).not.toContain('hunter2-token');
    expect(lines.join('\n')).not.toContain('quote\\"secret');
    expect(warning.msg).toBe('Collection failed for <redacted>');
    expect(warning.header).toBe('Bearer <redacted>');
    expect(warning.other).toBe('has <redacted> inside');
    expect(warning.err).toMatchObject({ type: 'UpstreamError', outcome: 'http_4xx', upstream: 'node-a', method: 'info.peers' });
    expect(warning.err.message).toBe('node-a info.peers: HTTP 401: bad token <redacted>');
    // Expected failures carry no stack; unexpected ones keep it.
    expect(warning.err.stack).toBeUndefined();
    expect(unexpected.err.type).toBe('TypeError');
    expect(unexpected.err.stack).toContain('TypeError: boom');
  });
});
