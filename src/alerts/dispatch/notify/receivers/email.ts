import { isIP } from 'node:net';
import type { Transporter } from 'nodemailer';
import type { ReceiverConfig } from '../../../../config/alerts-schema.js';
import { escapeHtml } from '../../../../server/html.js';
import { defaultOpsgenieDescription, defaultSubject } from './alertmanager-text.js';
import type { OutgoingGroup } from './group.js';
import type { Receiver, SendResult } from './receiver.js';

/**
 * An email per group through the configured smarthost, as Alertmanager's email integration sends
 * it: implicit TLS on port 465, else STARTTLS required unless require_tls is false (and then not
 * used, as Alertmanager does not), the login when auth_username is set, the Subject
 * Alertmanager's default subject. SMTP itself is nodemailer's (docs/decisions.md).
 */
export function createEmailReceiver(config: ReceiverConfig): Receiver {
  const email = config.email!;
  let transport: Promise<Transporter> | undefined;
  return {
    config,
    async send(group) {
      try {
        transport ??= smtpTransport(config);
        await (await transport).sendMail(message(config, group));
        return { outcome: 'delivered' } satisfies SendResult;
      } catch (error) {
        // Alertmanager retries every SMTP failure; a refused recipient may be a full mailbox.
        return { outcome: 'retry', error: `SMTP ${email.host}:${email.port}: ${(error as Error).message}` };
      }
    },
  };
}

/**
 * nodemailer is loaded with the first email sent, not with the daemon: most installs configure no
 * email receiver, and its code would otherwise stay in every daemon's heap.
 */
async function smtpTransport(config: ReceiverConfig): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  const email = config.email!;
  const tls = config.transport?.tls;
  return nodemailer.createTransport({
    host: email.host,
    port: email.port,
    secure: email.port === 465,
    requireTLS: email.requireTls,
    ignoreTLS: !email.requireTls,
    name: email.hello,
    auth: email.username === undefined ? undefined : credentials(email),
    // The certificate must name the smarthost (an IP address goes in no SNI, RFC 6066).
    tls: { ...tls, ...(tls?.servername === undefined && isIP(email.host) === 0 ? { servername: email.host } : {}) },
    connectionTimeout: config.timeoutMs,
    greetingTimeout: config.timeoutMs,
    socketTimeout: config.timeoutMs,
  });
}

type Email = NonNullable<ReceiverConfig['email']>;

/** Alertmanager logs in with CRAM-MD5 when given only its secret, else with the password (PLAIN or LOGIN). */
function credentials(email: Email) {
  if (email.password === undefined && email.cramSecret !== undefined)
    return { user: email.username!, pass: email.cramSecret, method: 'CRAM-MD5' };
  return { user: email.username!, pass: email.password ?? '' };
}

function message(config: ReceiverConfig, group: OutgoingGroup) {
  const email = config.email!;
  const { To, From, Subject, ...headers } = email.headers;
  const text = email.text ?? `${defaultSubject(group)}\n\n${defaultOpsgenieDescription(group)}`;
  return {
    from: From ?? email.from,
    to: To ?? email.to,
    // The envelope is the configured addresses, as Alertmanager's MAIL FROM and RCPT TO.
    envelope: { from: email.from, to: email.to },
    subject: Subject ?? defaultSubject(group),
    headers,
    text,
    html: email.html ?? `<pre>${escapeHtml(text)}</pre>`,
  };
}
