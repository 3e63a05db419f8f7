// What a transaction undoes when its request never learned whether it committed. A request answers
// 503 database_unavailable once its deadline passes or its connection is cut; when that happens after
// its COMMIT was sent (a server hung or shutting down mid-commit), the commit may still have happened.
// Each repository that writes what a client must never find after a 503 (a report, an idempotency
// record) registers its undo in the transaction (Sql.ifCommitUnknown); they run once the transaction's
// own outcome is settled, so they never run before a late commit lands, and retry while the database
// is unreachable. Lost only if this process stops before the database comes back.
import { isDatabaseUnreachable } from "./errors";

export type Undo = () => Promise<unknown>;

const RETRY_MS = 500;

/** Runs `undos` in order once `outcome` has settled, each retried while the database is unreachable. */
export function undoAfter(outcome: Promise<unknown>, undos: Undo[]): void {
  void outcome
    .then(
      () => {},
      () => {},
    )
    .then(async () => {
      for (const undo of undos) {
        for (;;) {
          try {
            await undo();
            break;
          } catch (e) {
            // Anything but an outage is a bug in the undo, which retrying would not mend.
            if (!isDatabaseUnreachable(e)) break;
            await Bun.sleep(RETRY_MS);
          }
        }
      }
    });
}
