// reportgen dashboard: progressive enhancement only. Every page works without this file; it adds
// copy buttons, local times, JSON checking as you type, dropping a file on an upload form, and live
// refresh of unfinished reports.

(() => {
  var live = document.getElementById("live");
  function announce(text) {
    if (live) live.textContent = text;
  }

  // Timestamps are rendered in UTC by the server; show them in the reader's own time zone.
  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach((t) => {
      var d = new Date(t.getAttribute("datetime"));
      if (!Number.isNaN(d)) {
        t.title = t.textContent;
        t.textContent = d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
      }
    });
  }
  localTimes(document);

  // Upload forms (data-dropzone): a file dropped anywhere on the form goes into its file field and the
  // form is sent, as if it had been chosen with the picker (which keyboard users use as it is).
  document.querySelectorAll("form[data-dropzone]").forEach((form) => {
    var input = form.querySelector("input[type=file]");
    if (!input) return;
    var over = (on) => form.classList.toggle("dragging", on);
    form.addEventListener("dragover", (e) => {
      e.preventDefault();
      over(true);
    });
    form.addEventListener("dragleave", (e) => {
      if (!form.contains(e.relatedTarget)) over(false);
    });
    form.addEventListener("drop", (e) => {
      e.preventDefault();
      over(false);
      if (!e.dataTransfer || e.dataTransfer.files.length === 0) return;
      input.files = e.dataTransfer.files;
      announce(`Uploading ${input.files[0].name}`);
      form.requestSubmit();
    });
  });

  // Copy buttons: data-copy names the id of the field whose value is copied.
  document.addEventListener("click", (e) => {
    var button = e.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    function say(text, spoken) {
      button.textContent = text;
      announce(spoken);
      setTimeout(() => {
        button.textContent = "Copy";
      }, 3000);
    }
    function done() {
      say("Copied", "Copied to the clipboard");
    }
    // Older browsers, or a clipboard the page may not write: copy the selection, or say how to.
    function fallback() {
      var ok = false;
      try {
        ok = document.execCommand("copy");
      } catch (_err) {
        ok = false;
      }
      if (ok) done();
      else say("Press Ctrl+C", "Could not copy. The key is selected: press Control C to copy it.");
    }
    field.select();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, fallback);
    else fallback();
  });

  // A status filter applies as soon as it changes.
  document.querySelectorAll("select[data-autosubmit]").forEach((s) => {
    s.addEventListener("change", () => {
      s.form.requestSubmit();
    });
  });

  // Playground: data must be a JSON object (for EJS); say so while typing, and keep submit honest.
  var data = document.getElementById("data");
  if (data) {
    var error = document.getElementById("data-error");
    var submit = document.getElementById("render");
    var engines = document.querySelectorAll("input[name=engine]");
    function check() {
      var raw = document.querySelector("input[name=engine]:checked").value === "raw";
      data.disabled = raw;
      var problem = "";
      if (!raw) {
        try {
          var v = JSON.parse(data.value || "{}");
          if (v === null || typeof v !== "object" || Array.isArray(v)) problem = 'Data must be a JSON object, like {"name": "Ada"}.';
        } catch (err) {
          problem = `Not valid JSON: ${err.message}`;
        }
      }
      data.setAttribute("aria-invalid", problem ? "true" : "false");
      error.textContent = problem || (raw ? "Raw HTML ignores data." : "Valid JSON.");
      error.className = problem ? "field-error" : "hint";
      submit.disabled = !!problem;
    }
    data.addEventListener("input", check);
    engines.forEach((r) => {
      r.addEventListener("change", check);
    });
    check();
  }

  // Live updates: an element with data-refresh is replaced by a fresh server rendering of itself
  // until the report it shows is finished (the new element then carries no data-refresh).
  function refresh() {
    var pending = document.querySelectorAll("[data-refresh]");
    if (!pending.length) return;
    Promise.all(
      Array.prototype.map.call(pending, (el) =>
        fetch(el.getAttribute("data-refresh"), { headers: { accept: "text/html" }, credentials: "same-origin" })
          .then((res) => {
            if (res.status === 401) {
              location.assign("/dashboard/sign-in");
              return;
            }
            if (!res.ok) return;
            return res.text().then((html) => {
              var t = document.createElement("template");
              t.innerHTML = html.trim();
              var next = t.content.firstElementChild;
              if (!next) return;
              localTimes(t.content);
              var hadFocus = el.contains(document.activeElement);
              el.replaceWith(next);
              if (!next.hasAttribute("data-refresh")) announce(next.getAttribute("data-announce") || "Report updated");
              if (hadFocus) {
                var f = next.querySelector("a, button");
                if (f) f.focus();
              }
            });
          })
          .catch(() => {}),
      ),
    ).then(() => {
      setTimeout(refresh, 1500);
    });
  }
  setTimeout(refresh, 1000);
})();
