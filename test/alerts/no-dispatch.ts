import type { AlertConsumer } from '../../src/alerts/evaluation/alert-updates.js';

/** A consumer that sends nothing: for tests of evaluation alone (which alerts fire, what is saved). */
export const noDispatch: AlertConsumer = {
  begin: () => {},
  take: () => new Set(),
  commit: () => false,
  rollback: () => {},
};
