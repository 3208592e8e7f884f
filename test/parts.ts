// The suite's two parts, kept here so that a new test file lands in one of them by itself.
//
// - unit (`npm run test:unit`): every test file not listed below. Real HTTP servers on loopback and
//   the simulator run in the test's own process; no child process is started, and
//   test/helpers/no-child-process.ts fails a unit test that starts one.
// - process (`npm run test:process`): the files below, which start processes: the built daemon
//   (dist/main.js), promtool, Prometheus, Alertmanager, Chromium, tsc, npm, systemd-analyze. They
//   need the build, and their waits are the ones a busy machine stretches (docs/extending.md).

/** Test files, relative to test/, that start child processes. */
export const PROCESS_TESTS: readonly string[] = [
  'alerts/alertmanager-cluster.test.ts',
  'alerts/alertmanager-ha.test.ts',
  'alerts/alertmanager-receiver-muting.test.ts',
  'alerts/crash-restart-stalled-chain.test.ts',
  'alerts/crash-restart.test.ts',
  'alerts/differential-delivery.test.ts',
  'alerts/differential-ha.test.ts',
  'alerts/differential-routing.test.ts',
  'alerts/email.test.ts',
  'alerts/oauth2-alertmanager.test.ts',
  'alerts/opsgenie-differential.test.ts',
  'alerts/rules-index.test.ts',
  'alerts/secret-echo.test.ts',
  'alerts/silences.test.ts',
  'alerts/situation-matrix.test.ts',
  'alerts/state-dir-lock.test.ts',
  'alerts/state-dir.test.ts',
  'alerts/test-alert-cli.test.ts',
  'artifacts/dashboards.test.ts',
  'artifacts/dockerfile.test.ts',
  'artifacts/image-build.test.ts',
  'artifacts/kubernetes.test.ts',
  'artifacts/package-install.test.ts',
  'artifacts/package.test.ts',
  'artifacts/prometheus-rules.test.ts',
  'artifacts/systemd.test.ts',
  'cli/broken-pipe.test.ts',
  'cli/collect.test.ts',
  'cli/did-you-mean.test.ts',
  'cli/entry-points.test.ts',
  'cli/fleet-process.test.ts',
  'cli/healthcheck.test.ts',
  'cli/init.test.ts',
  'cli/listen-addresses.test.ts',
  'cli/node-version.test.ts',
  'cli/plain-errors.test.ts',
  'cli/process-settings.test.ts',
  'cli/process.test.ts',
  'clients/transport.test.ts',
  'collectors/public-api-daemon.test.ts',
  'config/bad-configs.test.ts',
  'config/public-api-config.test.ts',
  'docs/rules-table.test.ts',
  'e2e/demo.test.ts',
  'e2e/gzip-body-clients.test.ts',
  'e2e/network-attacker.test.ts',
  'e2e/prometheus.test.ts',
  'e2e/real-for.test.ts',
  'e2e/stalled-daemon.test.ts',
  'e2e/status-page-fleet.test.ts',
  'e2e/status-page.test.ts',
  'e2e/wall-clock-step.test.ts',
  'metrics/catalogue-runtime.test.ts',
  'metrics/exposition-promtool.test.ts',
  'server/alertmanager-status.test.ts',
  'server/auth-abuse.test.ts',
  'server/web-config-watch.test.ts',
  'server/web-config.test.ts',
];

/**
 * The process files that take longest (rules' real `for` under libfaketime, timed steps against a
 * real Alertmanager, an image built with buildah): 50-200 s each on an idle machine, longest first.
 * They start before the other files (test/long-first-sequencer.ts), which fill the other workers
 * around them.
 */
export const LONG_PROCESS_TESTS: readonly string[] = [
  'alerts/situation-matrix.test.ts',
  'e2e/real-for.test.ts',
  'alerts/differential-ha.test.ts',
  'artifacts/image-build.test.ts',
  'alerts/differential-delivery.test.ts',
  'alerts/differential-routing.test.ts',
  'alerts/alertmanager-cluster.test.ts',
];
