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
  'alerts/differential-routing.test.ts',
  'alerts/rules-index.test.ts',
  'alerts/secret-echo.test.ts',
  'alerts/silences.test.ts',
  'alerts/situation-matrix.test.ts',
  'alerts/state-dir-lock.test.ts',
  'alerts/state-dir.test.ts',
  'alerts/test-alert-cli.test.ts',
  'artifacts/dashboards.test.ts',
  'artifacts/dockerfile.test.ts',
  'artifacts/kubernetes.test.ts',
  'artifacts/package.test.ts',
  'artifacts/prometheus-rules.test.ts',
  'artifacts/systemd.test.ts',
  'cli/broken-pipe.test.ts',
  'cli/collect.test.ts',
  'cli/fleet-process.test.ts',
  'cli/healthcheck.test.ts',
  'cli/init.test.ts',
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
  'e2e/status-page.test.ts',
  'e2e/wall-clock-step.test.ts',
  'metrics/catalogue-runtime.test.ts',
  'metrics/exposition-promtool.test.ts',
  'server/auth-abuse.test.ts',
  'server/web-config-watch.test.ts',
  'server/web-config.test.ts',
];
