// options.linearize: "fast web view", the first page readable before the whole file has arrived.
import type { QpdfStep } from "../step";

export const linearize: QpdfStep<true> = {
  name: "linearize",
  tool: "qpdf",
  plan: ({ options: o }) => (o.linearize ? true : undefined),
  job: () => ({ linearize: "" }),
};
