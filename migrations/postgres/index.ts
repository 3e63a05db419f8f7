// PostgreSQL's embedded migrations, in order, bundled as text like SQLite's (../index.ts). Its own
// numbering: version 1 here is the whole SQLite schema up to 0008. Append; never edit a released file.
import p0001 from "./0001_init.sql" with { type: "text" };
import p0004 from "./0004_usage.sql" with { type: "text" };
import type { Migration } from "../index";

export const postgresMigrations: Migration[] = [
  { version: 1, name: "0001_init", sql: p0001 },
  { version: 4, name: "0004_usage", sql: p0004 },
];
