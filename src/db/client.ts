// Opens the SQLite database with the pragmas the service relies on.
import { Database } from "bun:sqlite";
import { chmodSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

export function openDatabase(file: string): Db {
  // Key hashes and client templates live here: private to the service user.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new Database(file, { create: true, strict: true });
  chmodSync(file, 0o600);
  // WAL lets readers (list, status) run while the renderer commits results. FULL syncs the log at
  // every commit: an accepted report and a recorded success survive a power cut or kernel crash, not
  // only a process crash as with NORMAL. Measured cost on this machine's ext4: see the README (Durability).
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  // A report's input (template, data, options) sits in its row until it finishes, ahead of the columns a
  // status read and every UPDATE of the row touch: SQLite walks the row's overflow pages to reach them. With
  // the default 2 MB cache a chunked report's 14 MB of data was read again from the file at every status
  // read (5 ms each) and progress update; cached, a read takes 0.1 ms. Measured on a 100,000-row ledger
  // (13.9 MB of data), two builds in turns: the server's own CPU 8.6-10.1 -> 5.4-5.7 s per report. The
  // cache grows only as pages are read (an idle service is unchanged) and is handed back after a quiet
  // period (app.ts: PRAGMA shrink_memory with the memory trim).
  sqlite.exec("PRAGMA cache_size = -65536");
  return drizzle({ client: sqlite, schema }) as Db;
}

/**
 * Runs a write that need not survive a power cut (it survives a process crash all the same) without
 * waiting for its fsync: the next FULL commit syncs the log with this write in it. For taking a report
 * off the queue: lost, it is simply still queued and is rendered again. Saves the main thread one
 * fsync per report.
 */
export function withoutSync<T>(sqlite: Database, write: () => T): T {
  sqlite.exec("PRAGMA synchronous = NORMAL");
  try {
    return write();
  } finally {
    sqlite.exec("PRAGMA synchronous = FULL");
  }
}
