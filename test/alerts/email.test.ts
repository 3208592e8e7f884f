import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/config/redact.js';
import { issuesOf } from '../helpers/config-issues.js';
import { ALERTMANAGER, startRealSystem } from '../helpers/real-systems.js';
import { body, hasAiosmtpd, header, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { requireTool } from '../helpers/tools.js';
import { drained, health, sec, startAlerting, type Harness } from './harness.js';

const PASSWORD = 'smtp-password-4f5a6b7c';
const hasAlertmanager = requireTool(ALERTMANAGER, 'prometheus-alertmanager');

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const dir = mkdtempSync(join(tmpdir(), 'avaxmon-email-'));
const cert = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
beforeAll(() => {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '1',
    ].concat(['-keyout', cert.keyFile, '-out', cert.certFile]),
    { stdio: 'ignore' },
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sink(tls = false): Promise<SmtpSink> {
  const started = await startSmtpSink(PASSWORD, tls ? cert : undefined);
  closers.push(() => started.close());
  return started;
}

async function alerting(emailConfig: string): Promise<Harness> {
  const harness = await startAlerting(
    `  route: { receiver: mail, group_by: [alertname], group_wait: 0s, group_interval: 1s }
  rules:
    AvalancheNodeUnhealthy: { for: 0s }
    AvalancheHealthCheckFailing: { enabled: false }`,
    `    - name: mail
      email_configs:
        - ${emailConfig.trim().split('\n').join('\n          ')}`,
  );
  closers.push(() => harness.close());
  return harness;
}

describe.skipIf(!hasAiosmtpd())('email_configs through a real SMTP server', () => {
  it('mails each notification with Alertmanager’s subject, logged in, the resolve too when asked', async () => {
    const smtp = await sink();
    const harness = await alerting(`to: 'Ops <ops@example.com>, oncall@example.com'
from: avaxmon@example.com
smarthost: 127.0.0.1:${smtp.port}
hello: avaxmon.example.com
auth_username: alerts
auth_password: ${PASSWORD}
require_tls: false
send_resolved: true
headers: { X-Team: validators, Reply-To: '{{ .CommonLabels.owner }}' }`);
    harness.alerting.evaluate(health(0), sec(0));
    const [firing] = await smtp.waitFor(1);
    harness.alerting.evaluate(health(1), sec(10));
    const [, resolved] = await smtp.waitFor(2);
    await drained(harness.alerting);
    expect([firing.hello, firing.login, firing.mail_from, firing.rcpt_tos]).toEqual([
      'avaxmon.example.com',
      'alerts',
      'avaxmon@example.com',
      ['ops@example.com', 'oncall@example.com'],
    ]);
    expect(header(firing, 'Subject')).toBe('[FIRING:1] AvalancheNodeUnhealthy (critical validator-1)');
    expect(header(firing, 'To')).toBe('Ops <ops@example.com>, oncall@example.com');
    expect(header(firing, 'X-Team')).toBe('validators');
    // A templated header is not evaluated, so not sent.
    expect(header(firing, 'Reply-To')).toBeUndefined();
    expect(body(firing)).toContain(' - target = validator-1');
    expect(header(resolved, 'Subject')).toBe('[RESOLVED] AvalancheNodeUnhealthy (critical validator-1)');
  });

  it('requires STARTTLS by default, verified against tls_config, and retries while a server lacks it', async () => {
    const plain = await sink();
    const harness = await alerting(`to: ops@example.com
from: avaxmon@example.com
smarthost: 127.0.0.1:${plain.port}`);
    harness.alerting.evaluate(health(0), sec(0));
    for (const deadline = Date.now() + 30_000; !harness.alerting.lastDelivery('mail')?.error; ) {
      if (Date.now() > deadline) throw new Error('no failed delivery recorded');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(harness.alerting.lastDelivery('mail')).toMatchObject({
      outcome: 'retried',
      error: expect.stringMatching(/^SMTP 127\.0\.0\.1:\d+: .*STARTTLS/),
    });
    expect(plain.messages).toEqual([]);

    const secure = await sink(true);
    const withTls = await alerting(`to: ops@example.com
from: avaxmon@example.com
smarthost: 127.0.0.1:${secure.port}
tls_config: { ca_file: ${cert.certFile} }`);
    withTls.alerting.evaluate(health(0), sec(0));
    const [message] = await secure.waitFor(1);
    expect(message.tls).toBe(true);
  });

  it('is checked as Alertmanager checks it, naming what avaxmon needs here', () => {
    const mail = (config: string) => `alerts:
  route: { receiver: r }
  receivers:
    - name: r
      email_configs: [${config}]
`;
    expect(issuesOf(mail('{ to: ops@example.com }'))).toEqual([
      'alerts.receivers[0].email_configs[0].smarthost: needs smarthost (avaxmon reads no alertmanager.yml global section: move global.smtp_smarthost here)',
      'alerts.receivers[0].email_configs[0].from: needs from (avaxmon reads no alertmanager.yml global section: move global.smtp_from here)',
    ]);
    expect(issuesOf(mail('{ to: "{{ .CommonLabels.owner }}", from: a@example.com, smarthost: "smtp.example.com:587" }'))).toEqual([
      'alerts.receivers[0].email_configs[0].to: avaxmon evaluates no templates here: write the address itself',
    ]);
    // The password is a secret from the moment the config loads.
    expect(
      issuesOf(
        mail(`{ to: o@example.com, from: a@example.com, smarthost: "smtp.example.com:587", auth_username: u, auth_password: ${PASSWORD} }`),
      ),
    ).toEqual([]);
    expect(scrubSecrets(`login ${PASSWORD}`)).toBe('login <redacted>');
    expect(issuesOf(mail('{ to: o@example.com, from: a@example.com, smarthost: smtp.example.com }'))).toEqual([
      'alerts.receivers[0].email_configs[0].smarthost: must be host:port, like smtp.example.com:587',
    ]);
  });
});

describe.skipIf(!hasAiosmtpd() || !hasAlertmanager)('email_configs beside the real Alertmanager 0.25', () => {
  it('mails the same envelope, greeting, login and subject', async () => {
    const smtp = await sink();
    const emailConfig = `to: 'Ops <ops@example.com>'
from: 'avaxmon <avaxmon@example.com>'
smarthost: 127.0.0.1:${smtp.port}
hello: avaxmon.example.com
auth_username: alerts
auth_password: ${PASSWORD}
require_tls: false`;
    const alertmanagerYml = `route: { receiver: mail, group_by: [alertname], group_wait: 0s }
receivers:
  - name: mail
    email_configs:
      - ${emailConfig.split('\n').join('\n        ')}
`;
    const alertmanager = await startRealSystem(ALERTMANAGER, { 'alertmanager.yml': alertmanagerYml }, (amDir, listen) => [
      '--config.file=alertmanager.yml',
      `--storage.path=${join(amDir, 'data')}`,
      `--web.listen-address=${listen}`,
      '--cluster.listen-address=',
    ]);
    closers.push(() => alertmanager.stop());
    const labels = { alertname: 'AvalancheNodeUnhealthy', severity: 'critical', target: 'validator-1' };
    await fetch(`${alertmanager.url}/api/v2/alerts`, {
      method: 'POST',
      body: JSON.stringify([{ labels }]),
      headers: { 'content-type': 'application/json' },
    });
    const [theirs] = await smtp.waitFor(1);

    const harness = await alerting(emailConfig);
    harness.alerting.evaluate(health(0), sec(0));
    const [, ours] = await smtp.waitFor(2);
    const seen = (message: typeof ours) => ({
      hello: message.hello,
      login: message.login,
      mail_from: message.mail_from,
      rcpt_tos: message.rcpt_tos,
      subject: header(message, 'Subject'),
      to: header(message, 'To'),
      from: header(message, 'From'),
    });
    expect(seen(ours)).toEqual(seen(theirs));
    expect(seen(theirs).subject).toBe('[FIRING:1] AvalancheNodeUnhealthy (critical validator-1)');
  }, 90_000);
});
