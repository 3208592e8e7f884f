import { describe, expect, it, vi } from 'vitest';
import { sliceLog } from '../../src/collectors/slice-log.js';
import { createLogger } from '../../src/runtime/log.js';
import { captureStream } from '../helpers/stack.js';

describe('a slice log', () => {
  it("writes its slice's target and collector on every line, through the parent's serializers", () => {
    const lines: string[] = [];
    const log = sliceLog(createLogger('info', 'json', captureStream(lines)), { target: 'node-a', collector: 'peers' });
    log.warn({ err: new TypeError('boom'), method: 'info.peers' }, 'Collection failed');
    log.info('Collection recovered');
    const [failed, recovered] = lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(failed).toMatchObject({ target: 'node-a', collector: 'peers', method: 'info.peers', msg: 'Collection failed' });
    expect(failed.err).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect(recovered).toMatchObject({ target: 'node-a', collector: 'peers', msg: 'Collection recovered' });
  });

  it('makes no child for a level the parent leaves out', () => {
    const lines: string[] = [];
    const parent = createLogger('info', 'json', captureStream(lines));
    const child = vi.spyOn(parent, 'child');
    sliceLog(parent, { target: 'node-a', collector: 'peers' }).debug({ durationSeconds: 0.1 }, 'Collection finished');
    expect(lines).toEqual([]);
    expect(child).not.toHaveBeenCalled();
  });
});
