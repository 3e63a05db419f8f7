// Images for tests: the PNG maker of scripts/lib/png.ts (the asset cost script uses it too).
export { logoPng, png } from "../../scripts/lib/png";
