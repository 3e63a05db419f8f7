// Every supervised child of the App by kind, for /metrics and logs: how many there are, how many are
// healthy, and how often they were replaced (restarts: crashes, hangs, failed starts; recycles: planned).
import type { ChildKind, SupervisedKind } from "./supervisor-types";

export interface KindStats {
  /** Supervised children of this kind. */
  children: number;
  /** Of those, how many are ready and pass their health probe now. */
  healthy: number;
  /** Unplanned replacements since start: crashes, hangs, failed starts. */
  restarts: number;
  /** Planned replacements, e.g. a sandbox killed for overrunning its template's deadline. */
  recycles: number;
}

/** Every supervisor of the App, for /metrics and logs. */
export class ChildRegistry {
  private readonly all = new Set<SupervisedKind>();
  /** Counts of supervisors already removed (stopped), so totals never go down. */
  private readonly retired = new Map<ChildKind, { restarts: number; recycles: number }>();

  add(s: SupervisedKind): void {
    this.all.add(s);
  }

  remove(s: SupervisedKind): void {
    if (!this.all.delete(s)) return;
    const r = this.retired.get(s.kind) ?? { restarts: 0, recycles: 0 };
    this.retired.set(s.kind, { restarts: r.restarts + s.restarts, recycles: r.recycles + s.recycles });
  }

  /** Per kind: children, healthy, restarts, recycles. Every kind is present, with zeros if unused. */
  stats(): Record<ChildKind, KindStats> {
    const out = {} as Record<ChildKind, KindStats>;
    for (const kind of ["chromium", "sandbox", "checkpointer", "validator", "rasteriser"] as ChildKind[]) {
      const r = this.retired.get(kind);
      out[kind] = { children: 0, healthy: 0, restarts: r?.restarts ?? 0, recycles: r?.recycles ?? 0 };
    }
    for (const s of this.all) {
      const k = out[s.kind];
      k.children++;
      if (s.healthy) k.healthy++;
      k.restarts += s.restarts;
      k.recycles += s.recycles;
    }
    return out;
  }
}
