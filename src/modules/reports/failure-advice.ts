// What a client is told to do about a failed report, chosen by its code's class (SERVICE_FAULTS): a
// service fault is not the template's, so the request is sent again later unchanged; any other code is
// the request's to fix. The one place that words it, so no answer blames the template for the service.
import { isServiceFault } from "../../lib/error-codes";

export const SERVICE_FAULT_ADVICE = "This is a fault of the service, not of the template or data: submit it again later.";
export const CLIENT_FAULT_ADVICE = "Fix the template or data and submit it again.";

/** The advice for a failed report's error code. */
export function failureAdvice(code: string | null): string {
  return code !== null && isServiceFault(code) ? SERVICE_FAULT_ADVICE : CLIENT_FAULT_ADVICE;
}
