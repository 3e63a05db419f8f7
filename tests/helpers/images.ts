// Images for tests: the PNG maker of tests/support/png.ts (the asset cost script uses it too).
export { logoPng, png } from "../support/png";
