// Loaded before every `bun` run from the sources (bunfig.toml): the driver fix the compiled executable
// gets at build time (scripts/lib/postgres-fix.ts).
import { postgresFix } from "./lib/postgres-fix";

Bun.plugin(postgresFix);
