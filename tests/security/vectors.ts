// Report pages that try to open a connection in every way a page can. Each URL carries a tag
// naming its vector, so a canary hit says exactly which one leaked.

/** Escapes text for a double-quoted HTML attribute (srcdoc). */
export const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const js = (s: string) => JSON.stringify(s);

/** A script that runs each statement on its own, so one throwing does not skip the rest. */
function tries(stmts: string[]): string {
  return stmts.map((s) => `try { ${s} } catch (e) {}`).join("\n");
}

/**
 * Every subresource, script and background vector against one origin, without navigating the
 * top-level page (navigations are in navigationPages). `http` is like "http://127.0.0.1:1234",
 * `ws` the matching ws:// origin, `udp` a "host:port" for STUN/TURN/WebTransport.
 */
export function subresourceVectors(http: string, ws: string, udp: string, tag: string): string {
  const u = (v: string) => `${http}/${tag}-${v}`;
  const css = `
    @font-face { font-family: Leak${tag.replace(/\W/g, "")}; src: url("${u("font-face")}"); }
    .ff { font-family: Leak${tag.replace(/\W/g, "")}; }
    .bg { background: url("${u("css-bg")}"); width: 10px; height: 10px; }
    .ls { list-style-image: url("${u("css-list")}"); }
    .cur { cursor: url("${u("css-cursor")}"), auto; }
    .bi { border: 5px solid; border-image: url("${u("css-border")}") 30; }
    .mask { -webkit-mask-image: url("${u("css-mask")}"); mask-image: url("${u("css-mask2")}"); width: 10px; height: 10px; }
    .is { background-image: image-set("${u("css-imageset")}" 1x); width: 10px; height: 10px; }
    .content::before { content: url("${u("css-content")}"); }
    .shape { shape-outside: url("${u("css-shape")}"); float: left; width: 10px; height: 10px; }
    .filter { filter: url("${u("css-filter")}#f"); }`;
  const srcdocInner = `<img src="${u("srcdoc-img")}"><script>${tries([`fetch(${js(u("srcdoc-fetch"))})`, `navigator.sendBeacon(${js(u("srcdoc-beacon"))}, "x")`])}</script>`;
  const cspInner = `<meta http-equiv="Content-Security-Policy" content="img-src 'none'; report-uri ${u("csp-report")}"><img src="${u("csp-img")}">`;
  const workerSrc = `${tries([`fetch(${js(u("worker-fetch"))})`, `new WebSocket(${js(`${ws}/${tag}-worker-ws`)})`, `importScripts(${js(u("worker-import"))})`, `new EventSource(${js(u("worker-es"))})`])}`;
  return `
<base href="${http}/${tag}-base/">
<style>@import url("${u("css-import")}");</style>
<style>@import "${u("css-import2")}" screen;</style>
<style>${css}</style>
<link rel="stylesheet" href="${u("link-stylesheet")}">
<link rel="stylesheet" href="data:text/css,${encodeURIComponent(`@import url("${u("data-css-import")}"); body{background:url("${u("data-css-bg")}")}`)}">
<link rel="preconnect" href="${http}">
<link rel="preconnect" href="${http}" crossorigin>
<link rel="dns-prefetch" href="${http}">
<link rel="prefetch" href="${u("link-prefetch")}">
<link rel="preload" as="image" href="${u("link-preload-image")}">
<link rel="preload" as="font" type="font/woff2" crossorigin href="${u("link-preload-font")}">
<link rel="preload" as="fetch" crossorigin href="${u("link-preload-fetch")}">
<link rel="preload" as="style" href="${u("link-preload-style")}">
<link rel="preload" as="script" href="${u("link-preload-script")}">
<link rel="modulepreload" href="${u("link-modulepreload")}">
<link rel="prerender" href="${u("link-prerender")}">
<link rel="icon" href="${u("link-icon")}">
<link rel="manifest" href="${u("link-manifest")}">
<script type="speculationrules">${JSON.stringify({ prefetch: [{ source: "list", urls: [u("spec-prefetch")] }], prerender: [{ source: "list", urls: [u("spec-prerender")] }] })}</script>
<p>vectors ${tag}</p>
<img src="${u("img")}" width="5" height="5">
<img src="based-img" width="5" height="5">
<img src="${http.replace("://", "://user:pass@")}/${tag}-img-userinfo" width="5" height="5">
<img srcset="${u("img-srcset")} 1x, ${u("img-srcset2")} 2x" width="5" height="5">
<picture><source srcset="${u("picture-source")}"><img width="5" height="5"></picture>
<input type="image" src="${u("input-image")}" width="5" height="5">
<div class="bg"></div><ul class="ls"><li>x</li></ul><div class="cur">c</div><div class="bi">b</div>
<div class="mask"></div><div class="is"></div><div class="content"></div><div class="shape"></div><div class="filter">f</div>
<span class="ff">font</span>
<div style="background-image: url('${u("style-attr")}'); width: 10px; height: 10px"></div>
<table background="${u("table-background")}"><tr><td>t</td></tr></table>
<body background="${u("body-background")}">
<iframe src="${u("iframe")}" width="20" height="20"></iframe>
<iframe src="${http.replace(/^https?:/, "https:")}/${tag}-iframe-https" width="20" height="20"></iframe>
<iframe src="view-source:${u("iframe-view-source")}" width="20" height="20"></iframe>
<iframe srcdoc="${attr(srcdocInner)}" width="20" height="20"></iframe>
<iframe srcdoc="${attr(cspInner)}" width="20" height="20"></iframe>
<iframe srcdoc="${attr(`<meta http-equiv="refresh" content="0;url=${u("iframe-meta-refresh")}">`)}" width="20" height="20"></iframe>
<iframe srcdoc="${attr(`<script>location = ${js(u("iframe-location"))}</script>`)}" width="20" height="20"></iframe>
<iframe src="data:text/html,${encodeURIComponent(`<img src="${u("data-iframe-img")}"><script>try{fetch(${js(u("data-iframe-fetch"))})}catch(e){}</script>`)}" width="20" height="20"></iframe>
<iframe name="sink_${tag.replace(/\W/g, "")}" width="20" height="20"></iframe>
<iframe name="sink2_${tag.replace(/\W/g, "")}" width="20" height="20"></iframe>
<form id="form_${tag.replace(/\W/g, "")}" action="${u("form-post")}" method="post" target="sink_${tag.replace(/\W/g, "")}"><input name="a" value="b"></form>
<a id="ping_${tag.replace(/\W/g, "")}" href="${u("a-href")}" ping="${u("a-ping")}" target="sink2_${tag.replace(/\W/g, "")}">a</a>
<script src="${u("script-src")}"></script>
<script type="module" src="${u("script-module")}"></script>
<script src="${http.replace(/^https?:/, "https:")}/${tag}-script-https"></script>
<video src="${u("video")}" poster="${u("video-poster")}" autoplay muted width="10" height="10"></video>
<video autoplay muted width="10" height="10"><source src="${u("video-source")}"><track default kind="captions" src="${u("video-track")}"></video>
<audio src="${u("audio")}" autoplay></audio>
<object data="${u("object")}" width="10" height="10"></object>
<object type="text/html" data="${u("object-html")}" width="10" height="10"></object>
<object type="image/png" data="${u("object-png")}" width="10" height="10"></object>
<embed src="${u("embed")}" width="10" height="10">
<embed type="image/svg+xml" src="${u("embed-svg")}" width="10" height="10">
<svg width="20" height="20" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
  <image href="${u("svg-image")}" width="5" height="5"/>
  <image xlink:href="${u("svg-image-xlink")}" width="5" height="5"/>
  <use href="${u("svg-use")}#x"/>
  <filter id="svgf"><feImage href="${u("svg-feimage")}"/></filter>
  <rect width="5" height="5" filter="url(#svgf)"/>
  <rect width="5" height="5" fill="url(${u("svg-fill")}#p)"/>
</svg>
<img src="data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg"><image href="${u("svg-in-img")}" width="5" height="5"/></svg>`)}" width="5" height="5">
<script>
window.addEventListener("pagehide", () => { try { navigator.sendBeacon(${js(u("beacon-pagehide"))}, "bye"); fetch(${js(u("fetch-pagehide"))}, { keepalive: true, method: "POST", body: "x" }); } catch (e) {} });
window.addEventListener("unload", () => { try { navigator.sendBeacon(${js(u("beacon-unload"))}, "bye"); } catch (e) {} });
document.addEventListener("visibilitychange", () => { try { navigator.sendBeacon(${js(u("beacon-visibility"))}, "bye"); } catch (e) {} });
${tries([
  `fetch(${js(u("fetch"))}).catch(() => {})`,
  `fetch(${js(u("fetch-nocors"))}, { mode: "no-cors" }).catch(() => {})`,
  `fetch(${js(u("fetch-keepalive"))}, { method: "POST", body: "x", keepalive: true }).catch(() => {})`,
  `fetch(new Request(${js(u("fetch-request"))}, { method: "PUT", body: "x" })).catch(() => {})`,
  `fetch(${js(`${http.replace(/^https?:/, "https:")}/${tag}-fetch-https`)}).catch(() => {})`,
  `const x = new XMLHttpRequest(); x.open("GET", ${js(u("xhr"))}); x.send()`,
  `const x = new XMLHttpRequest(); x.open("POST", ${js(u("xhr-sync"))}, false); x.send("x")`,
  `navigator.sendBeacon(${js(u("beacon"))}, "x")`,
  `navigator.sendBeacon(${js(u("beacon-blob"))}, new Blob(["{}"], { type: "application/json" }))`,
  `navigator.sendBeacon(${js(`${http.replace(/^https?:/, "https:")}/${tag}-beacon-https`)}, "x")`,
  `new WebSocket(${js(`${ws}/${tag}-websocket`)})`,
  `new WebSocket(${js(`${ws.replace(/^wss?:/, "wss:")}/${tag}-websocket-secure`)})`,
  `new EventSource(${js(u("eventsource"))})`,
  `new Image().src = ${js(u("new-image"))}`,
  `new Audio(${js(u("new-audio"))}).play().catch(() => {})`,
  `import(${js(u("dynamic-import"))}).catch(() => {})`,
  `new Worker(${js(u("worker"))})`,
  `new SharedWorker(${js(u("shared-worker"))})`,
  `navigator.serviceWorker.register(${js(u("service-worker"))}).catch(() => {})`,
  `new Worker(URL.createObjectURL(new Blob([${js(workerSrc)}], { type: "text/javascript" })))`,
  `new Worker("data:text/javascript," + encodeURIComponent(${js(workerSrc)}))`,
  `window.open(${js(u("window-open"))})`,
  `window.open(${js(u("window-open-named"))}, "popup", "width=100,height=100")`,
  `const l = document.createElement("link"); l.rel = "preconnect"; l.href = ${js(http)}; document.head.appendChild(l)`,
  `const l = document.createElement("link"); l.rel = "prefetch"; l.href = ${js(u("dyn-prefetch"))}; document.head.appendChild(l)`,
  `const f = new FontFace("dyn", ${js(`url(${u("fontface-api")})`)}); document.fonts.add(f); f.load().catch(() => {})`,
  `document.write(${js(`<img src="${u("document-write")}" width="5" height="5">`)})`,
  `document.getElementById(${js(`form_${tag.replace(/\W/g, "")}`)}).submit()`,
  `document.getElementById(${js(`ping_${tag.replace(/\W/g, "")}`)}).click()`,
  `const pc = new RTCPeerConnection({ iceServers: [{ urls: ${js(`stun:${udp}`)} }, { urls: ${js(`turn:${udp}`)}, username: "u", credential: "c" }, { urls: ${js(`turn:${udp}?transport=tcp`)}, username: "u", credential: "c" }] }); pc.createDataChannel("d"); pc.createOffer().then((o) => pc.setLocalDescription(o)).catch(() => {})`,
  `new WebTransport(${js(`https://${udp}/${tag}-webtransport`)}).ready.catch(() => {})`,
  `setTimeout(() => { try { fetch(${js(u("fetch-late"))}).catch(() => {}); navigator.sendBeacon(${js(u("beacon-late"))}, "x"); } catch (e) {} }, 50)`,
  `queueMicrotask(() => { try { navigator.sendBeacon(${js(u("beacon-microtask"))}, "x"); } catch (e) {} })`,
])}
document.body.insertAdjacentHTML("beforeend", "<p>JS-RAN-" + ${js(tag)} + "</p>");
</script>`;
}

/** Top-level navigations (each its own report, since it leaves the page). */
export function navigationPages(url: string): [string, string][] {
  return [
    ["meta refresh", `<meta http-equiv="refresh" content="0;url=${url}"><p>nav</p>`],
    ["meta refresh (upper-case)", `<META HTTP-EQUIV="REFRESH" CONTENT="0; URL='${url}'"><p>nav</p>`],
    ["location =", `<p>nav</p><script>location = ${js(url)}</script>`],
    ["location.replace", `<p>nav</p><script>location.replace(${js(url)})</script>`],
    ["location.href in a timer", `<p>nav</p><script>setTimeout(() => (location.href = ${js(url)}), 0)</script>`],
    ["top.location from an iframe", `<p>nav</p><iframe srcdoc="${attr(`<script>top.location = ${js(url)}</script>`)}"></iframe>`],
    [
      "form auto-submit",
      `<form id="f" action="${url}" method="get"><input name="q" value="1"></form><script>document.getElementById("f").submit()</script>`,
    ],
    [
      "form POST auto-submit",
      `<form id="f" action="${url}" method="post"><input name="q" value="1"></form><script>document.getElementById("f").submit()</script>`,
    ],
    ["link click", `<a id="a" href="${url}">a</a><script>document.getElementById("a").click()</script>`],
    ["window.open _self", `<p>nav</p><script>window.open(${js(url)}, "_self")</script>`],
    [
      "base + relative refresh",
      `<base href="${url.replace(/[^/]*$/, "")}"><meta http-equiv="refresh" content="0;url=${url.replace(/^.*\//, "") || "."}"><p>nav</p>`,
    ],
  ];
}

/** Ways a page could print a local file's text, if file:// ever loaded. */
export function fileVectors(fileUrl: string, tag: string): string {
  const dir = fileUrl.replace(/[^/]*$/, "");
  const name = fileUrl.replace(/^.*\//, "");
  return `
<p>file ${tag}</p>
<iframe src="${fileUrl}" width="600" height="200"></iframe>
<iframe src="view-source:${fileUrl}" width="600" height="200"></iframe>
<object data="${fileUrl}" type="text/plain" width="600" height="200"></object>
<object data="${fileUrl}" width="600" height="200"></object>
<embed src="${fileUrl}" type="text/plain" width="600" height="200">
<iframe srcdoc="${attr(`<base href="${dir}"><iframe src="${name}" width="600" height="200"></iframe>`)}" width="620" height="220"></iframe>
<iframe srcdoc="${attr(`<meta http-equiv="refresh" content="0;url=${fileUrl}">`)}" width="600" height="200"></iframe>
<iframe srcdoc="${attr(`<script>location = ${js(fileUrl)}</script>`)}" width="600" height="200"></iframe>
<iframe src="data:text/html,${encodeURIComponent(`<iframe src="${fileUrl}" width="600" height="200"></iframe>`)}" width="620" height="220"></iframe>
<link rel="stylesheet" href="${fileUrl}">
<style>@import url("${fileUrl}");</style>
<img src="${fileUrl}">
<script src="${fileUrl}"></script>
<iframe name="fsink" width="600" height="200"></iframe>
<form id="ff" action="${fileUrl}" target="fsink"></form>
<script>
${tries([
  `const x = new XMLHttpRequest(); x.open("GET", ${js(fileUrl)}, false); x.send(); document.body.insertAdjacentText("beforeend", "XHR:" + x.responseText)`,
  `fetch(${js(fileUrl)}).then((r) => r.text()).then((t) => document.body.insertAdjacentText("beforeend", "FETCH:" + t)).catch(() => {})`,
  `const w = window.open(${js(fileUrl)}); if (w) setTimeout(() => { try { document.body.insertAdjacentText("beforeend", "OPEN:" + w.document.body.innerText); } catch (e) {} }, 100)`,
  `document.getElementById("ff").submit()`,
])}
document.body.insertAdjacentHTML("beforeend", "<p>JS-RAN-" + ${js(tag)} + "</p>");
</script>`;
}

/** Spellings of "this machine" (every one reaches the dual-stack canary if connected to). */
export const LOCAL_HOSTS = [
  "127.0.0.1",
  "localhost",
  "LOCALHOST",
  "localhost.",
  "sub.localhost",
  "2130706433",
  "0177.0.0.1",
  "0x7f000001",
  "0x7F.0.0.1",
  "127.1",
  "127.0.1",
  "017700000001",
  "127.000.000.001",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[::1]",
  "[0:0:0:0:0:0:0:1]",
  "[::127.0.0.1]",
  "[::]",
  "0.0.0.0",
  "0",
  "localtest.me",
  "127.0.0.1.nip.io",
  "192.0.2.2", // this machine's eth0
  "[fd00::2]", // this machine's eth0, IPv6
  "169.254.169.254",
];

/** Spellings of a local file's URL, for every way a page can load one. */
export const FILE_URLS = [
  "file:///etc/passwd",
  "FILE:///etc/passwd",
  "File:///etc/passwd",
  "file://localhost/etc/passwd",
  "file://127.0.0.1/etc/passwd",
  "file:/etc/passwd",
  "file:///etc/./passwd",
  "file:///etc/%70asswd",
  "file:///etc//passwd",
  "file:\\\\\\etc\\passwd",
  "file:///proc/self/root/etc/passwd",
  "file:///../../etc/passwd",
];

/** Ways to print a local file that navigate the top-level page. */
export const FILE_NAV_URLS = ["file:///etc/passwd", "FILE:///etc/passwd", "file://localhost/etc/passwd", "file:/etc/passwd"];
