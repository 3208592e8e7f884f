import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireTool } from '../helpers/tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const doc = readFileSync(join(ROOT, 'docs/deploy-systemd.md'), 'utf8');
/** The unit file the package ships; docs/deploy-systemd.md shows it whole. */
const unit = readFileSync(join(ROOT, 'deploy/systemd/avaxmon.service'), 'utf8');
/** The unit for `npm install -g`: the same service, started through the installed `avaxmon` command. */
const npmUnit = readFileSync(join(ROOT, 'deploy/systemd/avaxmon-npm.service'), 'utf8');
const directory = mkdtempSync(join(tmpdir(), 'avaxmon-unit-'));
const unitFile = join(directory, 'avaxmon.service');
writeFileSync(unitFile, unit);
mkdirSync(join(directory, 'npm'));
const npmUnitFile = join(directory, 'npm/avaxmon.service');
writeFileSync(npmUnitFile, npmUnit);

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the systemd unit (deploy/systemd/avaxmon.service)', () => {
  it('is the one docs/deploy-systemd.md shows', () => {
    expect(/```ini\n([\s\S]*?)```/.exec(doc)![1]).toBe(unit);
  });

  it('runs the same command as the image, with reload and stop signals', () => {
    // The node on PATH, never a hard-coded /usr/bin/node (Debian's is too old); loopback by default.
    // No node flags or environment file: the daemon applies its own process settings.
    expect(unit).toMatch(
      /^ExecStart=\/usr\/bin\/env node \/opt\/avaxmon\/dist\/main\.js --config\.file=\/etc\/avaxmon\/config\.yaml --web\.listen-address=127\.0\.0\.1:9683 /m,
    );
    expect(unit).not.toContain('/usr/bin/node');
    expect(unit).toMatch(/^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(unit).toMatch(/^StateDirectory=avaxmon$/m);
  });

  it('passes systemd-analyze verify', () => {
    if (!requireTool(SYSTEMD_ANALYZE, 'systemd')) return;
    const result = spawnSync(SYSTEMD_ANALYZE, ['verify', unitFile], { encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('is hardened: systemd-analyze security rates its exposure below 2 of 10', () => {
    if (!requireTool(SYSTEMD_ANALYZE, 'systemd')) return;
    const result = spawnSync(SYSTEMD_ANALYZE, ['security', '--offline=yes', unitFile], { encoding: 'utf8' });
    const exposure = /Overall exposure level for avaxmon\.service: ([\d.]+)/.exec(result.stdout);
    expect(exposure, result.stdout + result.stderr).not.toBeNull();
    expect(Number(exposure![1])).toBeLessThan(2);
  });
});

describe('the systemd unit for a global npm install (deploy/systemd/avaxmon-npm.service)', () => {
  /** The unit's settings, without comments and the lines that name how avaxmon was installed. */
  const settings = (text: string) =>
    text.split('\n').filter((line) => line !== '' && !line.startsWith('#') && !/^(WorkingDirectory|ExecStartPre|ExecStart)=/.test(line));

  it('runs the installed avaxmon command, from the state directory', () => {
    expect(npmUnit).toMatch(/^ExecStartPre=\/usr\/bin\/env avaxmon check-config \/etc\/avaxmon\/config\.yaml$/m);
    expect(npmUnit).toMatch(
      /^ExecStart=\/usr\/bin\/env avaxmon --config\.file=\/etc\/avaxmon\/config\.yaml --web\.listen-address=127\.0\.0\.1:9683 /m,
    );
    expect(npmUnit).toMatch(/^WorkingDirectory=%S\/avaxmon$/m);
    expect(npmUnit).not.toContain('/opt/avaxmon');
  });

  it('is otherwise the checkout unit: the same hardening, signals and limits', () => {
    expect(settings(npmUnit)).toEqual(settings(unit));
  });

  it('is named in docs/deploy-systemd.md with the command that installs it', () => {
    expect(doc).toContain('sudo cp "$(npm root -g)/avaxmon/deploy/systemd/avaxmon-npm.service" /etc/systemd/system/avaxmon.service');
  });

  it('passes systemd-analyze verify', () => {
    if (!requireTool(SYSTEMD_ANALYZE, 'systemd')) return;
    const result = spawnSync(SYSTEMD_ANALYZE, ['verify', npmUnitFile], { encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});
