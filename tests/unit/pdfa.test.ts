// The PDF/A update (src/pdf/pdfa.ts) on hand-made object sets: what it adds, strips and keeps in step.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { isoDate, pdfaUpdate, type QpdfObjects, xmpPacket } from "../../src/pdf/pdfa";
import { srgbProfile } from "../../src/pdf/steps/pdfa";
import { readTrueType, watermarkFont } from "../../src/pdf/watermark-font";

const now = new Date("2025-03-31T10:00:00Z");

function objects(catalog: Record<string, unknown>, extra: Record<string, unknown> = {}, info?: Record<string, unknown>): QpdfObjects {
  return [
    { maxobjectid: 9 },
    {
      "obj:1 0 R": { value: { "/Type": "/Catalog", "/Pages": "2 0 R", ...catalog } },
      ...(info ? { "obj:3 0 R": { value: info } } : {}),
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`obj:${k}`, { value: v }])),
      trailer: { value: { "/Root": "1 0 R", "/Size": 10, ...(info ? { "/Info": "3 0 R" } : {}) } },
    },
  ];
}

const run = (o: QpdfObjects, level: "2b" | "3b" = "2b") => {
  const { update, info } = pdfaUpdate(o, { level, icc: new Uint8Array([1, 2, 3]), now, tool: "reportgen" });
  return { objs: (update as { qpdf: [unknown, Record<string, any>] }).qpdf[1], info };
};

describe("pdfaUpdate", () => {
  test("Info and XMP get one normalised value each; PDF dates become XMP dates", () => {
    const { objs, info } = run(
      objects(
        {},
        {},
        {
          "/Title": "u:A <b> & \u0001c",
          "/Creator": "u:reportgen",
          "/Producer": "u:Skia/PDF m156",
          "/CreationDate": "u:D:20250330120000+02'00'",
        },
      ),
    );
    expect(info).toMatchObject({ title: "A <b> & c", created: "2025-03-30T12:00:00+02:00", modified: "2025-03-31T10:00:00+00:00" });
    expect(objs["obj:3 0 R"].value).toMatchObject({ "/Title": "u:A <b> & c", "/ModDate": "u:D:20250331100000+00'00'" });
    const xmp = Buffer.from(objs["obj:10 0 R"].stream.data, "base64").toString("utf8");
    expect(xmp).toContain('<rdf:li xml:lang="x-default">A &lt;b&gt; &amp; c</rdf:li>');
    expect(xmp).toContain("<pdfaid:part>2</pdfaid:part>");
    expect(xmp).toContain("<xmp:CreateDate>2025-03-30T12:00:00+02:00</xmp:CreateDate>");
  });

  test("a document without Info (a merge) gets one, named in the trailer", () => {
    const { objs, info } = run(objects({}));
    expect(info.producer).toBe("reportgen");
    expect(objs.trailer.value).toMatchObject({ "/Root": "1 0 R", "/Info": "10 0 R", "/Size": 10 });
  });

  test("JavaScript, launch actions and additional actions are removed; annotations made printable", () => {
    const { objs } = run(
      objects(
        { "/OpenAction": "5 0 R", "/AA": { "/WC": "6 0 R" }, "/Names": { "/JavaScript": "7 0 R", "/Dests": "8 0 R" } },
        { "5 0 R": { "/S": "/Launch", "/F": "u:calc.exe" }, "9 0 R": { "/Type": "/Annot", "/Subtype": "/Link", "/F": 2 } },
      ),
    );
    const catalog = objs["obj:1 0 R"].value;
    expect(catalog["/OpenAction"]).toBeUndefined();
    expect(catalog["/AA"]).toBeUndefined();
    expect(catalog["/Names"]).toEqual({ "/Dests": "8 0 R" });
    expect(objs["obj:9 0 R"].value["/F"]).toBe(4);
    const intent = objs[`obj:${catalog["/OutputIntents"][0]}`].value;
    expect(intent).toMatchObject({ "/S": "/GTS_PDFA1", "/OutputConditionIdentifier": "u:sRGB IEC61966-2.1" });
    expect(objs[`obj:${intent["/DestOutputProfile"]}`].stream.dict["/N"]).toBe(3);
  });

  test("3b lists embedded files in /AF with a relationship, a media type and a ModDate; 2b leaves them", () => {
    const o = objects(
      { "/Names": { "/EmbeddedFiles": { "/Names": ["u:a.bin", "5 0 R"] } } },
      { "5 0 R": { "/Type": "/Filespec", "/F": "u:a.bin", "/EF": { "/F": "6 0 R" } } },
    );
    o[1]["obj:6 0 R"] = { stream: { dict: { "/Type": "/EmbeddedFile", "/Length": 3 } } };
    const { objs } = run(o, "3b");
    expect(objs["obj:1 0 R"].value["/AF"]).toEqual(["5 0 R"]);
    expect(objs["obj:5 0 R"].value).toMatchObject({ "/AFRelationship": "/Unspecified", "/UF": "u:a.bin" });
    expect(objs["obj:6 0 R"].stream.dict).toMatchObject({
      "/Subtype": "/application/octet-stream",
      "/Params": { "/ModDate": "u:D:20250331100000+00'00'" },
    });
    expect(run(o, "2b").objs["obj:1 0 R"].value["/AF"]).toBeUndefined();
  });
});

test("isoDate reads the forms of PDF dates", () => {
  expect(isoDate("D:20250331")).toBe("2025-03-31T00:00:00+00:00");
  expect(isoDate("D:20250331120102Z")).toBe("2025-03-31T12:01:02+00:00");
  expect(isoDate("D:20250331120102-05'30'")).toBe("2025-03-31T12:01:02-05:30");
  expect(isoDate("yesterday")).toBeUndefined();
});

test("an extension schema is described (pdfaExtension) and its values written", () => {
  const xmp = xmpPacket("3b", { created: "2025-03-31T10:00:00+00:00", modified: "2025-03-31T10:00:00+00:00" }, [
    {
      schema: "S",
      namespaceUri: "urn:x#",
      prefix: "fx",
      properties: [{ name: "DocumentType", valueType: "Text", category: "external", description: "d", value: "INVOICE" }],
    },
  ]);
  expect(xmp).toContain("<pdfaSchema:namespaceURI>urn:x#</pdfaSchema:namespaceURI>");
  expect(xmp).toContain("<pdfaProperty:name>DocumentType</pdfaProperty:name>");
  expect(xmp).toContain("<fx:DocumentType>INVOICE</fx:DocumentType>");
});

test("the embedded sRGB profile is the unaltered file of icc-profiles-free (src/pdf/icc/README.md)", async () => {
  const icc = await srgbProfile();
  expect(createHash("sha256").update(icc).digest("hex")).toBe("2a92d4bae450b76d8b0aa42193df974d75f62738ecebf74f01c5e75b12a95796");
  expect(Buffer.from(icc.subarray(12, 20)).toString("latin1")).toBe("mntrRGB ");
});

test("the watermark font's widths come from its hmtx: Liberation Sans Bold has Helvetica Bold's metrics", async () => {
  const f = await watermarkFont();
  const w = (c: string) => f.widths[c.charCodeAt(0) - 32];
  // Helvetica-Bold's AFM: space 278, A 722, i 278, W 944, zero 556; € (WinAnsi 0x80) 556.
  expect([w(" "), w("A"), w("i"), w("W"), w("0")]).toEqual([278, 722, 278, 944, 556]);
  expect(f.widths[0x80 - 32]).toBe(556);
  expect(() => readTrueType(new Uint8Array(64), "x")).toThrow();
});
