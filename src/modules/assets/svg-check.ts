// Refuses SVGs that could run code or fetch anything, rather than sanitising them: a sanitiser that
// rewrites a logo silently changes what the client uploaded, and one that misses a trick is a hole,
// while a refusal names the element and the client removes it. An asset SVG printed through <img> runs
// no script anyway; it is checked because a template may also put it in <object>, <iframe> or <embed>,
// where it would. Refused: <script>, <foreignObject> (HTML inside SVG), <iframe>/<object>/<embed>,
// on* event attributes, javascript: URLs anywhere, entity declarations (they can expand to markup),
// processing instructions (xml-stylesheet), and references outside the file (href/src other than
// #fragment or a data: image, url(...) likewise, @import).
import { AppError } from "../../lib/errors";

const FORBIDDEN_ELEMENTS = new Set(["script", "foreignobject", "iframe", "object", "embed", "handler", "listener"]);

/** A reference that stays inside the file: a fragment, or an embedded raster image. */
const LOCAL_REF = /^(#|data:image\/(png|jpeg|gif|webp);)/i;

/** Numeric and the five named entities decoded, control characters and spaces dropped: what a URL parser sees. */
function normalised(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#([0-9]+);?/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(
      /&(lt|gt|amp|quot|apos);/gi,
      (m) => ({ "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'" })[m.toLowerCase()] ?? m,
    )
    .replace(/[\u0000-\u0020]/g, "");
}

const refused = (element: string, problem: string, fix: string) =>
  new AppError("asset_unsafe", `the SVG is refused: ${problem}; ${fix}, then upload it again (SVGs are refused, never rewritten)`, {
    element,
    problem,
  });

/** Throws 422 asset_unsafe naming the first element that could run code or load something. */
export function checkSvg(svg: string): void {
  const text = svg.replace(/<!--[\s\S]*?-->/g, "");
  if (/<!ENTITY/i.test(text)) throw refused("!ENTITY", "it declares entities", "remove the DOCTYPE's entity declarations");
  const pi = /<\?([A-Za-z][\w.-]*)/g.exec(text);
  if (pi && pi[1]!.toLowerCase() !== "xml") throw refused(`?${pi[1]}`, `it holds the processing instruction <?${pi[1]}>`, "remove it");
  const tag = /<([A-Za-z][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const element = m[1]!;
    const local = element.split(":").at(-1)!.toLowerCase();
    if (FORBIDDEN_ELEMENTS.has(local)) throw refused(element, `it holds a <${element}> element`, `remove the <${element}> element`);
    const attr = /([^\s=/]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g;
    for (let a = attr.exec(m[2]!); a; a = attr.exec(m[2]!)) {
      const name = a[1]!;
      const value = normalised(a[3] ?? a[4] ?? a[5] ?? "");
      const attrName = name.split(":").at(-1)!.toLowerCase();
      if (attrName.startsWith("on"))
        throw refused(element, `<${element}> has the event-handler attribute ${name}`, `remove ${name} from <${element}>`);
      if (/javascript:/i.test(value)) throw refused(element, `<${element}> has a javascript: URL in ${name}`, `remove it`);
      if ((attrName === "href" || attrName === "src") && value !== "" && !LOCAL_REF.test(value))
        throw refused(
          element,
          `<${element}> refers to ${value.slice(0, 80)} outside the file (${name})`,
          "embed it or remove the reference",
        );
      if (attrName === "style") checkCss(element, value);
    }
  }
  for (const style of text.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) checkCss("style", normalised(style[1]!));
  if (/javascript:/i.test(normalised(text))) throw refused("svg", "it holds a javascript: URL", "remove it");
}

function checkCss(element: string, css: string): void {
  if (/@import/i.test(css)) throw refused(element, `<${element}> imports a style sheet (@import)`, "remove the @import");
  for (const u of css.matchAll(/url\(\s*["']?([^"')]*)/gi)) {
    if (!LOCAL_REF.test(u[1]!))
      throw refused(element, `<${element}> refers to ${u[1]!.slice(0, 80)} outside the file (url())`, "embed it or remove the reference");
  }
}
