import chainActivity from './chain-activity.mjs';
import fleet from './fleet.mjs';
import node from './node.mjs';
import self from './self.mjs';
import validators from './validators.mjs';

/** Every dashboard by the file name it is committed under in dashboards/. */
export const dashboards = {
  'fleet-overview.json': fleet,
  'node-detail.json': node,
  'validators-and-l1s.json': validators,
  'chain-activity.json': chainActivity,
  'avaxmon-self.json': self,
};

export function renderDashboard(dashboard) {
  return `${JSON.stringify(dashboard, null, 2)}\n`;
}
