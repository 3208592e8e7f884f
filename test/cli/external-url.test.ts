import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultExternalUrl, parseCli } from '../../src/cli/args.js';

describe('--web.external-url', () => {
  it("defaults, as Prometheus', to this host's name and the listening port, so notifications link back", () => {
    expect(defaultExternalUrl('', 9683, false)).toBe(`http://${hostname()}:9683/`);
    expect(defaultExternalUrl('127.0.0.1', 9683, true)).toBe('https://127.0.0.1:9683/');
    expect(defaultExternalUrl('::1', 9683, false)).toBe('http://[::1]:9683/');
  });

  it('is taken from the flag', () => {
    expect(parseCli(['--web.external-url=https://avaxmon.example.org/']).externalUrl).toBe('https://avaxmon.example.org/');
  });
});
