// The CLI's commands, loaded by main.ts once it has checked the Node.js version and applied the process settings.
// Each command imports what only it needs when it runs: `--version`, `check-config` or a daemon
// refusing a bad config should not first load fastify, undici and every collector.
import { exitOnBrokenPipe } from '../runtime/broken-pipe.js';
import type { Logger } from 'pino';
import { loadConfigFile } from '../config/load.js';
import { loadReceiverConfig } from '../config/load-receiver.js';
import { configSummary } from '../config/summary.js';
import { ConfigError, formatConfigIssue } from '../errors.js';
import { createLogger } from '../runtime/log.js';
import type { Daemon } from '../daemon/daemon.js';
import {
  USAGE,
  UsageError,
  controlPlaneOptions,
  defaultExternalUrl,
  parseCli,
  parseListenAddress,
  parseShard,
  type CliOptions,
} from './args.js';
import { REVISION, VERSION } from '../runtime/version.js';

const EXIT_USAGE = 2;
/** Why a listen address cannot be used, in words: a stack trace here helps nobody. */
const LISTEN_PROBLEMS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the address is already in use (another avaxmon, or another program on that port)',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'no network interface has that address',
};
/** A stop that has not finished by then exits anyway: the outbox is on disk, nothing is lost. */
const STOP_DEADLINE_MS = 4_500;

async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCli(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`avaxmon: ${error.message} (avaxmon --help lists the commands and flags)\n`);
    return EXIT_USAGE;
  }
  switch (options.command) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'version':
      process.stdout.write(`avaxmon ${VERSION} (revision ${REVISION}, node ${process.version})\n`);
      return 0;
    case 'init':
      return (await import('./init.js')).runInit(options.positionals[0] ?? options.configFile);
    case 'check-config':
      return checkConfig(options.positionals[0] ?? options.configFile);
    case 'simulate':
      return simulate(options);
    case 'test-alert':
      return testAlert(options);
    case 'collect':
      return collect(options);
    case 'healthcheck':
      return (await import('./healthcheck.js')).runHealthcheck(options);
    case 'run':
      return runDaemon(options);
  }
}

/** Prints one line per bad config path to stderr; the caller exits 2. */
function reportConfigError(error: unknown): number {
  if (!(error instanceof ConfigError)) throw error;
  for (const issue of error.issues) process.stderr.write(`${formatConfigIssue(issue)}\n`);
  return EXIT_USAGE;
}

function checkConfig(file: string): number {
  try {
    const config = loadConfigFile(file);
    process.stdout.write(`${file}: OK (${config.targets.length} target(s))\n`);
    return 0;
  } catch (error) {
    return reportConfigError(error);
  }
}

async function testAlert(options: CliOptions): Promise<number> {
  if (!options.values.receiver) {
    process.stderr.write('avaxmon: test-alert needs --receiver NAME (a receiver of alerts.receivers in --config.file)\n');
    return EXIT_USAGE;
  }
  let config: ReturnType<typeof loadReceiverConfig>;
  try {
    config = loadReceiverConfig(options.configFile, options.values.receiver as string, { requireSomethingToWatch: false });
  } catch (error) {
    return reportConfigError(error);
  }
  const { sendTestAlert } = await import('../alerts/dispatch/notify/test-alert.js');
  let daemonUrl: string;
  try {
    const { host, port } = parseListenAddress(options.listenAddress);
    const https = options.webConfigFile
      ? Boolean((await import('../server/web-config.js')).loadWebConfig(options.webConfigFile).https)
      : false;
    daemonUrl = options.externalUrl ?? defaultExternalUrl(host, port, https);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`avaxmon: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const result = await sendTestAlert(config, options.values.receiver as string | undefined, daemonUrl);
  (result.ok ? process.stdout : process.stderr).write(`${result.message}\n`);
  return result.ok ? 0 : 1;
}

async function simulate(options: CliOptions): Promise<number> {
  const [{ runSimulatorCommand }, { ScenarioError }] = await Promise.all([
    import('../simulator/command.js'),
    import('../simulator/scenario.js'),
  ]);
  try {
    await runSimulatorCommand(options);
    return 0;
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`avaxmon: ${error.message}\n`);
    return EXIT_USAGE;
  }
}

async function collect(options: CliOptions): Promise<number> {
  try {
    const config = loadConfigFile(options.configFile);
    return await (await import('./collect.js')).runCollectCommand(config, options);
  } catch (error) {
    if (!(error instanceof UsageError)) return reportConfigError(error);
    process.stderr.write(`avaxmon: ${error.message}\n`);
    return EXIT_USAGE;
  }
}

async function runDaemon(options: CliOptions): Promise<number> {
  const logger = createLogger(options.logLevel, options.logFormat);
  let daemon: Daemon;
  try {
    const addresses = options.listenAddresses.map(parseListenAddress);
    const { host, port } = addresses[0];
    const shard = typeof options.values.shard === 'string' ? parseShard(options.values.shard) : undefined;
    const config = loadConfigFile(options.configFile);
    logger.info({ config: options.configFile, ...configSummary(config) }, 'Config loaded');
    const { loadWebConfig } = await import('../server/web-config.js');
    const web = { ...(options.webConfigFile ? loadWebConfig(options.webConfigFile) : {}), control: controlPlaneOptions(options.values) };
    const { Daemon } = await import('../daemon/daemon.js');
    daemon = new Daemon({
      config,
      logger,
      configFile: options.configFile,
      web,
      shard,
      externalUrl: options.externalUrl ?? defaultExternalUrl(host, port, Boolean(web.https)),
    });
    await daemon.open();
    await (await import('../server/listen.js')).listenOnEvery(daemon.app, addresses, web, {
      maxConnections: options.maxConnections,
      log: logger,
    });
    if (options.webConfigFile) (await import('../server/web-config-watch.js')).watchWebConfig(options.webConfigFile, daemon.app, logger);
    // Before the line supervisors and tests wait for: a SIGTERM sent on seeing it must drain, not kill.
    handleSignals(daemon, logger);
    logger.info(
      {
        address: options.listenAddresses.join(', '),
        config: options.configFile,
        tls: Boolean(web.https),
        basicAuth: Boolean(web.basicAuthUsers),
      },
      'avaxmon listening',
    );
  } catch (error) {
    return reportStartFailure(error, options.listenAddresses.join(', '), logger);
  }
  void daemon.start();
  return new Promise<number>(() => {});
}

/**
 * Why the daemon did not start, once, as a log line on the log's stream and format (stderr, as
 * Prometheus' own); exit 2 for a bad config or flag, 1 otherwise.
 */
function reportStartFailure(error: unknown, listenAddress: string, logger: Logger): number {
  if (error instanceof ConfigError) {
    logger.error({ issues: error.issues.map(formatConfigIssue) }, 'Invalid config; not starting');
    return EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    logger.error(error.message);
    return EXIT_USAGE;
  }
  const listenProblem = LISTEN_PROBLEMS[(error as NodeJS.ErrnoException).code ?? ''];
  if (listenProblem) {
    logger.error(`Cannot listen on ${listenAddress}: ${listenProblem}; choose another with --web.listen-address`);
  } else {
    logger.error({ err: error }, 'Cannot start');
  }
  logger.flush();
  return 1;
}

function handleSignals(daemon: Daemon, logger: Logger): void {
  process.on('SIGHUP', () => {
    logger.info('SIGHUP received; reloading config');
    void daemon.reload();
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'Draining in-flight work before exit');
    const deadline = setTimeout(() => {
      logger.warn({ deadlineMs: STOP_DEADLINE_MS }, 'Stop did not finish in time; exiting with the outbox as it is on disk');
      logger.flush();
      process.exit(0);
    }, STOP_DEADLINE_MS);
    void (async () => {
      // Open keep-alive scrapes would hold app.close() up: new requests are refused, idle ones closed.
      daemon.app.server.closeIdleConnections?.();
      await Promise.all([daemon.app.close(), daemon.stop()]);
      clearTimeout(deadline);
      logger.info('Stopped cleanly');
      logger.flush();
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

exitOnBrokenPipe(process.stdout);
exitOnBrokenPipe(process.stderr);
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`avaxmon: fatal: ${(error as Error)?.stack ?? error}\n`);
    process.exit(1);
  },
);
