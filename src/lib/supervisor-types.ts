// The types a supervisor, its registry and its groups share (no code): what a supervised child is, why
// one was taken down, and what the registry reads of a supervisor. Kept apart so that supervisor.ts,
// child-registry.ts and supervisor-group.ts import each other in one direction only.

export type ChildKind = "chromium" | "sandbox" | "checkpointer" | "validator" | "rasteriser";

/** One generation of a supervised child. A new one is created for every (re)start. */
export interface Child {
  /** Resolves once the child is ready for work; rejects if it cannot start. */
  start(): Promise<void>;
  /** Ends the child at once with everything it started (SIGKILL of the whole tree); never throws. */
  kill(): Promise<void>;
  /** Asks the child to finish cleanly; the supervisor kills it when this takes longer than allowed. */
  stop?(): Promise<void>;
  /** A real round trip to the child (e.g. CDP Browser.getVersion); resolves false or rejects when unhealthy. */
  probe?(timeoutMs: number): Promise<boolean>;
}

/** Why a child was taken down. `hang` means it stopped answering (probe or task deadline). */
export interface ChildFailure {
  cause: string;
  hang: boolean;
  /** A replacement the owner asked for as part of normal work (e.g. a template overran its deadline). */
  planned: boolean;
}

/** What the registry reads of a supervisor (lib/supervisor.ts) for /metrics. */
export interface SupervisedKind {
  readonly kind: ChildKind;
  /** Ready and not failing its health probe. */
  readonly healthy: boolean;
  restarts: number;
  recycles: number;
}
