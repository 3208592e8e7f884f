/**
 * How Alertmanager names and orders alerts, so a tool keyed on its webhooks reads avaxmon's the same:
 * the fingerprint of a label set (Prometheus' LabelSet.Fingerprint) and the order of a group's alerts
 * (Alertmanager's AlertSlice).
 */

type Labels = Readonly<Record<string, string>>;

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;
const SEPARATOR = 0xff;
const encoder = new TextEncoder();

/** FNV-1a over every label name and value, sorted by name, each followed by 0xff; 16 hex digits. */
export function labelsFingerprint(labels: Labels): string {
  let hash = FNV_OFFSET;
  const add = (byte: number) => {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  };
  for (const name of Object.keys(labels).sort()) {
    for (const part of [name, labels[name]]) {
      for (const byte of encoder.encode(part)) add(byte);
      add(SEPARATOR);
    }
  }
  return hash.toString(16).padStart(16, '0');
}

/** Alertmanager's AlertSlice order: by `job`, then `instance` (an alert lacking one goes last), then the label sets. */
export function compareAlertLabels(a: Labels, b: Labels): number {
  for (const key of ['job', 'instance']) {
    const [left, right] = [a[key], b[key]];
    if (left === undefined && right === undefined) continue;
    if (left === undefined) return 1;
    if (right === undefined) return -1;
    if (left !== right) return left < right ? -1 : 1;
  }
  return compareLabelSets(a, b);
}

/**
 * Prometheus' LabelSet.Before: fewer labels first; else, over the union of names in order, the first
 * name one set lacks puts that set first, and the first differing value decides.
 */
function compareLabelSets(a: Labels, b: Labels): number {
  const [sizeA, sizeB] = [Object.keys(a).length, Object.keys(b).length];
  if (sizeA !== sizeB) return sizeA - sizeB;
  for (const name of [...Object.keys(a), ...Object.keys(b)].sort()) {
    if (!Object.hasOwn(a, name)) return -1;
    if (!Object.hasOwn(b, name)) return 1;
    if (a[name] !== b[name]) return a[name] < b[name] ? -1 : 1;
  }
  return 0;
}
