import { DeflateWriter } from './deflate-writer.js';
import { EMPTY_PART, joinParts, type DeflatePart } from './gzip-stream.js';

/**
 * A family whose lines take at least this many bytes is compressed as a group of its own; the smaller
 * families between two such are one group. At 1,000 nodes most of a body's bytes are in groups of one
 * family; a single node's body is one group, compressed as well as one stream would be.
 */
export const GROUP_ALONE_BYTES = 64 * 1024;

/** One family's part of a gzip body, as the snapshot keeps count of it. */
export interface GzipFamily {
  readonly name: string;
  /** Its lines' bytes in every slice: what decides its group. */
  readonly bytes: number;
  /** The snapshot version at which its lines last changed. */
  readonly changedAt: number;
}

/** Writes a family's header and lines into the deflate part of its group. */
export type FamilyWriter = (family: string, writer: DeflateWriter) => void;

interface CompressedGroup {
  /** The snapshot version its families were compressed at. */
  readonly version: number;
  readonly part: DeflatePart;
}

/**
 * A gzip body's deflate stream assembled from groups of families, each compressed as a deflate part
 * of its own (see gzip-stream.ts) and reused by the next assembly while none of its families changed. Between two scrapes of a fleet most
 * families do not move (upgrade schedules, installed VMs, health verdicts, intervals): at 1,000 nodes
 * three quarters of a 21 MB body is the same 2 s later, and a reused group costs neither the walk over
 * its slices, nor their copies, nor their compression. One per format: the headers differ.
 */
export class GzipGroups {
  private compressed = new Map<string, CompressedGroup>();
  private readonly writer = new DeflateWriter();

  /**
   * The deflate part of `families` (in catalogue order) at `version`. `writerFor` is asked once, with the
   * families to write again (those of every group not reusable), and its writer writes each of them.
   */
  assemble(families: readonly GzipFamily[], version: number, writerFor: (stale: ReadonlySet<string>) => FamilyWriter): DeflatePart {
    const groups = groupsOf(families).map((group) => {
      const key = group.map((family) => family.name).join(' ');
      const previous = this.compressed.get(key);
      const reusable = previous && group.every((family) => family.changedAt <= previous.version) ? previous : undefined;
      return { group, key, reusable };
    });
    const stale = new Set(groups.flatMap(({ group, reusable }) => (reusable ? [] : group.map((family) => family.name))));
    const write = stale.size > 0 ? writerFor(stale) : undefined;
    const next = new Map<string, CompressedGroup>();
    for (const { group, key, reusable } of groups) next.set(key, reusable ?? { version, part: this.compress(group, write!) });
    // Groups no longer in the body are dropped: the cache holds one compressed body at most.
    this.compressed = next;
    return next.size > 0 ? joinParts([...next.values()].map((group) => group.part)) : EMPTY_PART;
  }

  private compress(group: readonly GzipFamily[], write: FamilyWriter): DeflatePart {
    for (const family of group) write(family.name, this.writer);
    return this.writer.end();
  }
}

function groupsOf(families: readonly GzipFamily[]): GzipFamily[][] {
  const groups: GzipFamily[][] = [];
  let small: GzipFamily[] = [];
  for (const family of families) {
    if (family.bytes < GROUP_ALONE_BYTES) {
      small.push(family);
      continue;
    }
    if (small.length > 0) groups.push(small);
    small = [];
    groups.push([family]);
  }
  if (small.length > 0) groups.push(small);
  return groups;
}
