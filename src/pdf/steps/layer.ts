// A one-page PDF laid over or under every page: qpdf's overlay or underlay. One run of qpdf takes
// one of each, so a watermark and a stamp must sit on different sides (checked by postOptionProblems).
import type { LayerPosition } from "../options";

export const layer = (position: LayerPosition, file: string) => ({
  [position === "under" ? "underlay" : "overlay"]: { file, repeat: "1" },
});
