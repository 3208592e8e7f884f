/** Told when the signal it follows aborts. */
export interface AbortFollower {
  parentAborted(reason: unknown): void;
}

const followersOf = new WeakMap<AbortSignal, Set<AbortFollower>>();

/**
 * Has `follower` told when `signal` aborts, through one listener per signal for all that follow it.
 * A run's signal is followed by each request and sub-deadline of the run: a listener of their own
 * each cost an addEventListener and a removeEventListener per request (Node's EventTarget keeps an
 * object per listener and checks the options each time), where a Set add and delete cost nothing.
 */
export function followAbort(signal: AbortSignal, follower: AbortFollower): void {
  let followers = followersOf.get(signal);
  if (!followers) {
    const created = new Set<AbortFollower>();
    followersOf.set(signal, created);
    signal.addEventListener('abort', () => abortAll(created, signal.reason), { once: true });
    followers = created;
  }
  followers.add(follower);
}

/** `follower` is no longer told; without effect if it never followed `signal`. */
export function unfollowAbort(signal: AbortSignal, follower: AbortFollower): void {
  followersOf.get(signal)?.delete(follower);
}

function abortAll(followers: Set<AbortFollower>, reason: unknown): void {
  const all = [...followers];
  followers.clear();
  for (const follower of all) follower.parentAborted(reason);
}
