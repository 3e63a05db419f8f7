// The outgoing check (JSON model) runs the same rules as the incoming check (XML): the JSON invoice is
// mapped to the semantic model and checked by rules/*.ts, with each finding at its JSON path.
import { expect, test } from "bun:test";
import { checkEInvoice, ciiXml } from "../../src/einvoice";
import { validateEInvoice } from "../../src/einvoice/validate";
import { AppError } from "../../src/lib/errors";
import { example1 } from "../helpers/einvoice-examples";

const details = (invoice: unknown) => {
  try {
    checkEInvoice({ invoice });
  } catch (e) {
    if (e instanceof AppError) return e.details as { rule: string; field: string }[];
    throw e;
  }
  return [];
};

test("a currency outside ISO 4217 is refused on the way out by the code-list rule BR-CL-04, at its JSON path", () => {
  expect(details({ ...structuredClone(example1.invoice), currency: "ABC" })).toContainEqual(
    expect.objectContaining({ rule: "BR-CL-04", field: "options.e_invoice.invoice.currency" }),
  );
});

test("a unit outside UN/ECE Rec 20/21 is refused by BR-CL-23 at the line's unit_code", () => {
  const invoice = structuredClone(example1.invoice);
  invoice.lines[0]!.unit_code = "QQQ";
  expect(details(invoice)).toContainEqual(
    expect.objectContaining({ rule: "BR-CL-23", field: "options.e_invoice.invoice.lines.0.unit_code" }),
  );
});

test("what the outgoing check passes, the incoming check of the XML we write passes too", () => {
  const xml = ciiXml(checkEInvoice({ invoice: example1.invoice }));
  expect(validateEInvoice(xml).errors).toEqual([]);
});
