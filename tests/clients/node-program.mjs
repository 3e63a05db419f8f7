// Run by tests/clients/package.test.ts with Node.js, beside the release's @reportgen/client unpacked into node_modules.
import { writeFileSync } from "node:fs";
import { createClient, ReportgenError } from "@reportgen/client";

const client = createClient({ baseUrl: process.env.REPORTGEN_URL, apiKey: process.env.REPORTGEN_KEY });
const { report_id } = await client.reports.generate({
  engine: "ejs",
  html_template: "<p>From <%= runtime %></p>",
  data: { runtime: "Node" },
});
writeFileSync(process.env.REPORTGEN_OUT, await client.reports.download(report_id));
try {
  await client.reports.generate({ engine: "ejs" });
} catch (e) {
  console.log(e instanceof ReportgenError ? e.code : String(e));
}
