import type { Silences } from '../alerts/dispatch/silence/silences.js';

/**
 * The unfiltered `GET /api/v2/silences` answer, rendered once per change: at the caps it is several
 * MB of JSON (1,000 silences of up to 8 KiB), which anonymous readers could otherwise have rendered
 * again at every request. It is rendered anew when a silence changes, starts, ends or is forgotten.
 */
export class SilenceListing {
  private cached?: { readonly silences: Silences; readonly revision: number; readonly untilMs: number; readonly body: string };

  body(silences: Silences, nowMs: number, render: () => string): string {
    const cached = this.cached;
    if (cached && cached.silences === silences && cached.revision === silences.revision && nowMs < cached.untilMs) return cached.body;
    // Rendering lists, and listing may forget old silences: the revision is read after it.
    const body = render();
    this.cached = { silences, revision: silences.revision, untilMs: silences.nextTransitionMs(nowMs), body };
    return body;
  }
}
