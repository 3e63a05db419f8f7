// The access keys this instance has verified, kept for a moment so that a request with a known key
// costs no database lookup. Only with PostgreSQL, and only while the instance LISTENs for key changes
// (migrations/postgres/0010_key_changes.sql): a change anywhere (delete, rotation, expiry, scopes, quota)
// drops the key here as soon as its notification arrives, a few milliseconds after the commit. A
// notification lost while the LISTEN connection is down is bounded by the TTL: a row is never used
// longer than ttlMs after it was read, and a reconnect drops every row. Expiry is checked against the
// row on every use, to the millisecond, cached or not.
import type { KeySecret } from "./repo";

/** How long a key's row may serve requests without being read again, when no notification came. */
export const KEY_ROW_TTL_MS = 1_000;

export class KeyRowCache {
  private readonly rows = new Map<string, { row: KeySecret; until: number }>();
  private ttlMs = 0;
  /** Bumped by every change and reset: a read in flight across one does not store what it read. */
  private generation = 0;

  /** From now on rows are kept (the instance listens for key changes). */
  enable(ttlMs = KEY_ROW_TTL_MS): void {
    this.ttlMs = ttlMs;
  }

  /** The key's row: kept, or read with `load` (and kept if nothing changed meanwhile). */
  async get(id: string, load: (id: string) => Promise<KeySecret | undefined>): Promise<KeySecret | undefined> {
    if (this.ttlMs <= 0) return load(id);
    const now = performance.now();
    const kept = this.rows.get(id);
    if (kept && kept.until > now) return kept.row;
    const generation = this.generation;
    const row = await load(id);
    if (row && generation === this.generation) this.rows.set(id, { row, until: now + this.ttlMs });
    else this.rows.delete(id);
    return row;
  }

  /** A key changed (here or on another instance): read it again next time. */
  changed(id: string): void {
    this.generation++;
    this.rows.delete(id);
  }

  /** Notifications may have been missed (the LISTEN connection was re-established): read every key again. */
  reset(): void {
    this.generation++;
    this.rows.clear();
  }
}
