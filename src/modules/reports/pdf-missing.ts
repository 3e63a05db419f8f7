// A succeeded report whose PDF is gone from the store before its retention ended (lost in the bucket,
// removed outside reportgen). Not `expired` (that is retention's doing): the report keeps its status,
// and its error says what happened, so its status page, the list and the dashboard tell the same story
// as whichever download found it missing (the API's download, a signed link, the e-invoice XML).
import { AppError } from "../../lib/errors";
import type { ReportsRepo } from "./repo";

const MESSAGE = "the report succeeded, but its PDF is missing from the store (lost or removed outside reportgen); generate it again";

/** Notes the loss on the report (fenced by the attempt whose PDF went missing) and returns the 410 to answer. */
export async function pdfMissing(repo: Pick<ReportsRepo, "notePdfMissing">, r: { id: string; attempts: number }): Promise<AppError> {
  await repo.notePdfMissing(r.id, r.attempts, MESSAGE);
  return new AppError("pdf_missing", MESSAGE);
}
