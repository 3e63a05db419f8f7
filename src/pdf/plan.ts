// The plan of a report's post-processing: from its stored options, the ordered list of named steps
// to run on its PDF. Pure: the same options always give the same plan, and nothing runs here.
import type { PasswordSeal } from "../lib/seal";
import type { StoredPostOptions } from "./options";
import type { PlanInput, Step } from "./step";
import { attachments } from "./steps/attachments";
import { encryption } from "./steps/encryption";
import { image } from "./steps/image";
import { linearize } from "./steps/linearize";
import { pageNumbers } from "./steps/page-numbers";
import { pdfa } from "./steps/pdfa";
import { sign } from "./steps/sign";
import { stamp } from "./steps/stamp";
import { toc } from "./steps/toc";
import { watermark } from "./steps/watermark";

/**
 * Every step, in the order it runs. A new step is one file in steps/ and one line here:
 * - the table of contents first (it adds pages, which the page numbers then count, and reads the
 *   outline, which a merge's join has just written), then the page numbers;
 * - layers first (they draw on the printed pages), then what adds to the document (attachments);
 * - PDF/A (with a Factur-X invoice's XML) goes after the attachments (and a merge's join), before
 *   linearize: PDF/A lists every embedded file and describes the document as it finally reads;
 * - linearize and encryption rewrite the whole file, so they come after every step that changes it;
 * - a signature covers the bytes as they finally are: it is the last step of a PDF;
 * - pictures of the pages (options.image) are made from the PDF as every step left it: after all of
 *   them (option-problems.ts refuses the steps that make sense only in a PDF with it).
 */
export const STEP_ORDER: readonly Step[] = [toc, pageNumbers, watermark, stamp, attachments, pdfa, linearize, encryption, sign, image];

/** One planned step: which step, with what parameters. */
export interface PlannedStep {
  name: string;
  params: unknown;
}

/** The steps to run on one PDF, in order; empty when no option asks for work. */
export interface PostPlan {
  steps: PlannedStep[];
}

/** The definition of a planned step. */
export function stepNamed(name: string): Step {
  const step = STEP_ORDER.find((s) => s.name === name);
  if (!step) throw new Error(`no post-processing step named ${name}`);
  return step;
}

/** The parameters `step` was planned with, or undefined when the plan does not run it. */
export function paramsOf<P>(plan: PostPlan, step: { name: string; plan(o: PlanInput): P | undefined }): P | undefined {
  return plan.steps.find((s) => s.name === step.name)?.params as P | undefined;
}

/**
 * The plan for a PDF. `passwords` are the opened encryption passwords (the stored options hold only
 * their seal); without encryption in the options they are ignored.
 */
export function plan(options: PlanInput["options"], passwords?: { user: string; owner: string }): PostPlan {
  const input: PlanInput = { options, passwords };
  const steps: PlannedStep[] = [];
  for (const step of STEP_ORDER) {
    const params = step.plan(input);
    if (params !== undefined) steps.push({ name: step.name, params });
  }
  return { steps };
}

/** The plan of a stored report, its passwords opened; undefined when its passwords cannot be opened. */
export function storedPlan(reportId: string, o: StoredPostOptions | undefined, seal: PasswordSeal): PostPlan | undefined {
  if (!o) return plan({});
  if (!o.encryption) return plan(o);
  const secrets = seal.open(reportId, o.encryption.sealed);
  if (!secrets) return undefined;
  return plan(o, { user: secrets.user ?? "", owner: secrets.owner ?? "" });
}
