// The release version, from package.json (bundled into the executable at build time).
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
