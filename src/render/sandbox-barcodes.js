// The barcode helpers of the EJS sandbox, compiled in strict mode on a template's first barcode: SVG
// markup for <%- %>. Fields and options go to the host as JSON, which checks every one.
(function installBarcodes(host) {
  const { barcode, payment } = host;
  const stringify = JSON.stringify;
  const json = (o) => (o === undefined ? "" : stringify(o));
  return {
    barcode: (type, text, o) => barcode(String(type), String(text), json(o)),
    epcQr: (fields, o) => payment("epc", json(fields), json(o)),
    epcQrPayload: (fields) => payment("epc-payload", json(fields), ""),
    swissQrBill: (fields, o) => payment("swiss", json(fields), json(o)),
    swissQrBillPayload: (fields) => payment("swiss-payload", json(fields), ""),
  };
});
