// Where the steering repository's shared/ folder is (reference data: the EN 16931 validation artefacts):
// beside this repository's clone, as CI has it, else at /work/shared, where the other fixtures are read.
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The shared/ folder's einvoice/ artefacts, wherever they are; a path that does not exist when neither is there. */
export const EINVOICE_ARTEFACTS =
  [join(import.meta.dir, "../../../shared/einvoice"), "/work/shared/einvoice"].find((d) => existsSync(d)) ??
  join(import.meta.dir, "../../../shared/einvoice");
