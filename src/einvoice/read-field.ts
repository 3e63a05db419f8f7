// What both readers (read-ubl.ts, read-cii.ts) share: an element as a Field of the semantic model, and
// whether a year, month and day make a calendar date.
import type { Field } from "./semantic";
import type { XmlElement } from "./xml";

/** The field of an element, or undefined when it is absent. */
export function field(el: XmlElement | undefined): Field | undefined {
  return el ? { v: el.text.trim(), at: el.xpath, attrs: el.attrs } : undefined;
}

/** The field of an element's attribute, or undefined when either is absent. */
export function attrField(el: XmlElement | undefined, name: string): Field | undefined {
  const v = el?.attrs[name];
  return v === undefined ? undefined : { v, at: `${el!.xpath}/@${name}`, attrs: {} };
}

/** A valid calendar date? (the XML Schema's xs:date, without caring for the time zone). */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1]!;
}
