// Pure parts of delivery: options.deliver's placeholders and target checks, and the e-mail headers a
// subject becomes (no header injection, RFC 2047 words of at most 75 characters).
import { expect, test } from "bun:test";
import { deliveryTarget, expand } from "../../src/modules/destinations/path";
import { buildMail, headerText } from "../../src/modules/destinations/transports/mime";

const v = { reportId: "r-1", templateId: null, acceptedAt: Date.UTC(2026, 0, 5, 23, 59) };

test("placeholders take the UTC day the report was accepted, its id and its template ({template_id} inline without one)", () => {
  expect(expand("{yyyy}/{mm}/{dd}/{report_id}-{template_id}.pdf", v)).toBe("2026/01/05/r-1-inline.pdf");
  expect(expand("{template_id}/{other}", { ...v, templateId: "t-9" })).toBe("t-9/{other}");
  expect(deliveryTarget(undefined, v, "f")).toBe("r-1.pdf");
});

test("a target must stay below the prefix or directory and carry no control characters or quotes", () => {
  for (const bad of ["/etc/passwd", "../up.pdf", "a/../b.pdf", "a//b.pdf", "./a.pdf", "dir/", 'a".pdf', "a\\b.pdf", "a\nb.pdf"])
    expect(() => deliveryTarget(bad, v, "options.deliver[0].path")).toThrow("options.deliver[0].path");
});

test("a subject cannot add a header; non-ASCII becomes encoded words of at most 75 characters", () => {
  expect(headerText("Invoice\r\nBcc: everyone@example.com")).toBe("Invoice Bcc: everyone@example.com");
  const long = headerText(`Rechnung ${"ä".repeat(80)}`);
  for (const line of long.split("\r\n")) expect(line.trim().length).toBeLessThanOrEqual(75);
  const mail = buildMail({ from: "a@b.example", to: ["c@d.example"], subject: "x\r\nBcc: e@f.example", text: "t", messageId: "1@r" });
  expect(
    mail
      .split("\r\n\r\n")[0]!
      .split("\r\n")
      .some((l) => l.startsWith("Bcc:")),
  ).toBe(false);
});
