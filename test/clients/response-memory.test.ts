import { beforeEach, describe, expect, it } from 'vitest';
import { QUIET_BYTES, RELEASE_DELAY_MS, ResponseMemory } from '../../src/clients/response-memory.js';
import { ManualClock } from '../helpers/manual-clock.js';

describe('response memory budget', () => {
  let collections: number;
  let memory: ResponseMemory;
  let clock: ManualClock;
  beforeEach(() => {
    collections = 0;
    clock = new ManualClock();
    memory = new ResponseMemory({ collect: () => collections++, clock });
  });

  it('refuses a take that would overdraw it, and reserves nothing then', () => {
    memory.setLimit(100);
    expect(memory.take(80)).toBe(true);
    expect(memory.take(30)).toBe(false);
    expect(memory.usedBytes).toBe(80);
  });

  it('never collects for ordinary traffic, however much is in flight', async () => {
    memory.take(100 * QUIET_BYTES);
    memory.give(100 * QUIET_BYTES);
    await clock.advance(RELEASE_DELAY_MS * 2);
    expect(collections).toBe(0);
  });

  it('hands a refused body back with one collection, once the attack is over', async () => {
    memory.take(32 * QUIET_BYTES);
    memory.noteRefusal();
    memory.give(32 * QUIET_BYTES);
    await clock.advance(RELEASE_DELAY_MS - 1);
    expect(collections).toBe(0);
    await clock.advance(1);
    expect(collections).toBe(1);
    // The attack is accounted for: ordinary bodies after it cause no further collection.
    memory.take(1024);
    memory.give(1024);
    await clock.advance(RELEASE_DELAY_MS * 2);
    expect(collections).toBe(1);
  });

  it('is not postponed by ordinary bodies read meanwhile', async () => {
    memory.noteRefusal();
    memory.take(1024);
    memory.give(1024);
    for (let tick = 0; tick < 50; tick++) {
      memory.take(1024);
      memory.give(1024);
      await clock.advance(100);
    }
    expect(collections).toBe(1);
  });

  it('waits for large bodies still in flight, then collects once', async () => {
    memory.noteRefusal();
    memory.take(1024);
    memory.give(1024);
    memory.take(8 * QUIET_BYTES);
    await clock.advance(RELEASE_DELAY_MS * 2);
    expect(collections).toBe(0);
    memory.give(8 * QUIET_BYTES);
    await clock.advance(RELEASE_DELAY_MS);
    expect(collections).toBe(1);
  });
});
