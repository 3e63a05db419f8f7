"""The Python client's scenarios, one per test of tests/clients/python.test.ts and retries.test.ts, run by
Debian's python3 against the compiled executable: `python3 python_scenarios.py NAME` with REPORTGEN_URL and
REPORTGEN_KEY set (and REPORTGEN_EXAMPLES, the guide's examples folder). A failed assert exits non-zero."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from typing import Any, Callable, Dict, List, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "clients", "python"))
import reportgen  # noqa: E402

URL = os.environ["REPORTGEN_URL"]
KEY = os.environ["REPORTGEN_KEY"]


def client(key: str = KEY, **kwargs: Any) -> reportgen.Client:
    return reportgen.Client(URL, key, **kwargs)


def invoice(n: int) -> Dict[str, Any]:
    return {"engine": "ejs", "html_template": "<h1>Invoice <%= number %></h1>", "data": {"number": n}}


def slow(ms: int) -> Dict[str, Any]:
    return {"engine": "ejs", "html_template": f"<% const end = Date.now() + {ms}; while (Date.now() < end) {{}} %><p>slow</p>", "data": {}}


def pdf_text(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        return subprocess.run(["pdftotext", f.name, "-"], check=True, capture_output=True, text=True).stdout


def raised(fn: Callable[[], Any]) -> reportgen.ReportgenError:
    try:
        fn()
    except reportgen.ReportgenError as e:
        assert e.code in reportgen.ERROR_CODES, e.code
        return e
    raise AssertionError("expected a ReportgenError")


def recorded(c: reportgen.Client) -> List[Tuple[float, urllib.request.Request, int]]:
    """Each request the client sends from now on: when, what, and its answer's status."""
    log: List[Tuple[float, urllib.request.Request, int]] = []
    send = c._send

    def spy(req: urllib.request.Request) -> reportgen.Answer:
        at = time.monotonic()
        answer = send(req)
        log.append((at, req, answer.status))
        return answer

    setattr(c, "_send", spy)  # noqa: B010 (a method replaced on one instance)
    return log


def generate_wait_download() -> None:
    c = client()
    q = c.reports.generate(invoice(42))
    assert not q.replayed
    link = c.reports.wait_for_pdf(q.report_id)
    assert link.url.startswith(f"{URL}/files/{q.report_id}?"), link
    pdf = c.reports.download(q.report_id)
    assert pdf.startswith(b"%PDF-") and "Invoice 42" in pdf_text(pdf)
    assert c.reports.get(q.report_id)["status"] == "succeeded"
    assert q.report_id in [r["report_id"] for r in c.reports.list(limit=5)["data"]]
    assert c.reports.delete(q.report_id)["deleted"] is True


def wait_follows_202() -> None:
    c = client()
    q = c.reports.generate(slow(2500))
    log = recorded(c)
    c.reports.wait_for_pdf(q.report_id, poll_seconds=0)
    polls = [(at, status) for at, req, status in log if "/download" in req.full_url]
    assert polls[-1][1] == 200 and any(s == 202 for _, s in polls), polls
    # Retry-After is 1 s: no poll comes sooner after a 202.
    assert all(b[0] - a[0] >= 0.99 for a, b in zip(polls, polls[1:])), polls


def errors() -> None:
    c = client()
    invalid = raised(lambda: c.reports.generate({"engine": "ejs"}))
    assert (invalid.status, invalid.code) == (422, "validation_failed")
    assert "html_template" in [p.get("field") for p in invalid.problems], invalid.details
    assert invalid.request_id
    missing = raised(lambda: c.reports.get("00000000-0000-4000-8000-000000000000"))
    assert (missing.status, missing.code) == (404, "not_found")
    unauthorized = raised(lambda: client("rg_nope").reports.list())
    assert (unauthorized.status, unauthorized.code) == (401, "unauthorized")
    failed = c.reports.generate({"engine": "ejs", "html_template": "<%= notDefined.field %>", "data": {}})
    refused = raised(lambda: c.reports.wait_for_pdf(failed.report_id))
    assert (refused.status, refused.code) == (409, "report_failed")


def idempotency() -> None:
    c = client()
    log = recorded(c)
    c.reports.generate(invoice(1))
    c.keys.create({"name": "idempotency-probe"})
    keys = [req.get_header("Idempotency-key") for _, req, _ in log if req.get_method() == "POST"]
    assert len(keys) == 2 and all(k and re.fullmatch(r"[0-9a-f-]{36}", k) for k in keys) and keys[0] != keys[1], keys
    key = str(uuid.uuid4())
    first = c.reports.generate(invoice(7), idempotency_key=key)
    again = c.reports.generate(invoice(7), idempotency_key=key)
    assert again == reportgen.Queued(first.report_id, True), (first, again)
    reused = raised(lambda: c.reports.generate(invoice(8), idempotency_key=key))
    assert (reused.status, reused.code) == (422, "idempotency_key_reused")


def templates() -> None:
    c = client()
    created = c.templates.create({"name": "Letter", "engine": "ejs", "html_template": "<p>v1 <%= who %></p>"})
    tid = created["template_id"]
    assert created["version"] == 1
    assert c.templates.add_version(tid, {"html_template": "<p>Dear <%= who %></p>"})["version"] == 2
    assert c.templates.get(tid)["latest_version"] == 2
    assert c.templates.get_version(tid, 1)["html_template"] == "<p>v1 <%= who %></p>"
    assert tid in [t["template_id"] for t in c.templates.list()["data"]]
    q = c.reports.generate({"template_id": tid, "data": {"who": "Ada"}})
    assert "Dear Ada" in pdf_text(c.reports.download(q.report_id))
    assert c.templates.delete(tid)["deleted"] is True


def assets() -> None:
    c = client()
    css = "h1 { color: rgb(200, 0, 0) }"
    up = c.assets.upload("brand.css", css)["data"]
    assert up["name"] == "brand.css" and up["id"] in [a["id"] for a in c.assets.list()["data"]]
    assert c.assets.get(up["id"])["size"] == len(css)
    assert c.assets.content(up["id"]) == css.encode()
    q = c.reports.generate({"engine": "raw", "html_template": '<link rel="stylesheet" href="asset:brand.css"><h1>Styled</h1>'})
    assert "Styled" in pdf_text(c.reports.download(q.report_id))
    assert c.assets.delete(up["id"])["deleted"] is True


def keys() -> None:
    c = client()
    k = c.keys.create({"name": "reporting-cron", "scopes": ["reports:read"]})
    assert k["data"].startswith("rg_") and k["id"] in [x["id"] for x in c.keys.list()]
    assert int(c.keys.update(k["id"], {"max_reports_per_day": 100})["max_reports_per_day"]) == 100
    rotated = c.keys.rotate(k["id"])["data"]
    assert isinstance(client(rotated).reports.list(limit=1)["data"], list)
    assert c.keys.delete(k["id"])["deleted"] is True
    assert raised(lambda: client(rotated).reports.list()).code == "unauthorized"


def e_invoice_validate() -> None:
    c = client()
    with open(os.path.join(os.environ["REPORTGEN_EXAMPLES"], "xrechnung-invoice.xml"), encoding="utf-8") as f:
        xml = f.read()
    ok = c.e_invoices.validate(xml=xml)
    assert (ok["valid"], ok["syntax"], ok["errors"]) == (True, "ubl", []), ok
    broken = c.e_invoices.validate(xml=re.sub(r"<cbc:IssueDate>[^<]*</cbc:IssueDate>", "", xml, count=1))
    assert broken["valid"] is False and broken["errors"], broken
    assert raised(lambda: c.e_invoices.validate(xml="this is not XML")).status == 400


def retried(code: str, submit: Callable[[reportgen.Client], Any]) -> None:
    """`submit` succeeds through the client although the server refused it with `code` first, after Retry-After."""
    retries: List[Tuple[str, int, float]] = []
    c = client(on_retry=lambda e, n, delay: retries.append((e.code, n, delay)))
    log = recorded(c)
    submit(c)
    assert retries and all(r[0] == code for r in retries), retries
    refused = [i for i, (_, _, status) in enumerate(log) if status in (429, 503)]
    for i in refused:
        assert log[i + 1][0] - log[i][0] >= retries[0][2] - 0.01, (log[i], log[i + 1])
        # The retry is the same request: the same Idempotency-Key, so it cannot act twice.
        assert log[i + 1][1].get_header("Idempotency-key") == log[i][1].get_header("Idempotency-key")
    print(f"{code}: {len(retries)} retries, waits {[r[2] for r in retries]} s")


def retry_429() -> None:
    # The server allows 1 POST per second per key (bursts of 2): of six quick ones, some are refused.
    retried("rate_limited", lambda c: [c.templates.create({"name": f"t{i}", "engine": "raw", "html_template": "<p>t</p>"}) for i in range(6)])


def retry_503() -> None:
    # The server queues one report at most: the second waits, refused with queue_full, until the first is done.
    def submit(c: reportgen.Client) -> None:
        first = reportgen.Client(URL, KEY).reports.generate(slow(3000))
        second = c.reports.generate(invoice(2))
        assert "Invoice 2" in pdf_text(c.reports.download(second.report_id))
        assert c.reports.get(first.report_id, wait=30)["status"] == "succeeded"

    retried("queue_full", submit)


SCENARIOS: Dict[str, Callable[[], None]] = {
    f.__name__: f
    for f in [
        generate_wait_download, wait_follows_202, errors, idempotency, templates, assets, keys, e_invoice_validate, retry_429, retry_503,
    ]
}

if __name__ == "__main__":
    SCENARIOS[sys.argv[1]]()
