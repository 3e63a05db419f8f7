import { expect, test } from "bun:test";
import { needsScripts } from "../../src/render/page-scripts";

const scripted = [
  "<script>1</script>",
  "<SCRIPT src=x></SCRIPT>",
  "<svg><script>1</script></svg>",
  '<img src=x onerror="alert(1)">',
  "<img/onerror=alert(1) src=x>",
  "<body onload='x()'>",
  '<a href="javascript:void(0)">',
  '<meta http-equiv="refresh" content="0;url=about:blank">',
  "<meta http-equiv=Refresh content=1>",
];
const plain = [
  "<h1>Invoice</h1><p>Total: 10</p>",
  "<p>the description of the subscription</p>",
  "<style>.on { color: red }</style><div class=on>x</div>",
  '<meta http-equiv="content-type" content="text/html; charset=utf-8">',
  "<p>JavaScript is not needed</p>",
];

test.each(scripted)("needs scripts: %s", (html) => expect(needsScripts(html)).toBe(true));
test.each(plain)("prints without scripts: %s", (html) => expect(needsScripts(html)).toBe(false));
