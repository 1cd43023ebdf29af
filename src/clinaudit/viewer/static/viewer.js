// clinaudit view: the grid's filters apply as you type (no page reload): the form's values are sent to
// /api/grid, and the grid, its count, summary band, pager and export link are rebuilt from the JSON answer.
// Every text from a run is set with textContent (never parsed as HTML). Without this script the form still
// works (apply reloads the page).
(function () {
  "use strict";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function pct(c) {
    var td = el("td");
    if (!c || !c.n) { td.textContent = "–"; return td; }
    td.appendChild(document.createTextNode((100 * c.rate).toFixed(1) + "% "));
    td.appendChild(el("span", "muted small", "(" + c.flips + "/" + c.n + ")"));
    return td;
  }

  function renderSummary(s) {
    var table = document.getElementById("summary-table");
    if (!table) { return; }
    document.getElementById("summary-question").textContent = s.question;
    var head = el("tr");
    head.appendChild(el("th", null, "variant"));
    s.models.forEach(function (m) { head.appendChild(el("th", null, m)); });
    var thead = el("thead");
    thead.appendChild(head);
    var tbody = el("tbody");
    s.rows.forEach(function (r) {
      var tr = el("tr");
      tr.appendChild(el("td", null, r.variant));
      s.models.forEach(function (m) { tr.appendChild(pct(r.cells[m])); });
      tbody.appendChild(tr);
    });
    var noise = el("tr", "noise");
    noise.appendChild(el("td", null, "noise floor (baseline re-samples)"));
    s.models.forEach(function (m) {
      var nf = s.noise[m];
      var td = el("td");
      if (nf && nf.pairs) {
        td.appendChild(document.createTextNode((100 * nf.rate).toFixed(1) + "% "));
        td.appendChild(el("span", "small", "(" + nf.disagree + "/" + nf.pairs + " pairs)"));
      } else {
        td.appendChild(document.createTextNode("– "));
        td.appendChild(el("span", "small", "(one seed)"));
      }
      noise.appendChild(td);
    });
    tbody.appendChild(noise);
    table.replaceChildren(thead, tbody);
  }

  function diffCell(pieces) {
    var td = el("td", "text");
    pieces.forEach(function (p) {
      var kind = p[0], text = p[1];
      if (kind === "eq") { td.appendChild(document.createTextNode(text)); }
      else if (kind === "ins" || kind === "del") { td.appendChild(el(kind, null, text)); }
      else if (kind === "note") { td.appendChild(el("span", "diff-note", text)); }
      else { td.appendChild(el("span", "more", " " + text)); }
    });
    return td;
  }

  function row(r, multi) {
    var tr = el("tr", (r.flip ? "flipped" : "") + (r.flip_differs ? " differs" : ""));
    var dash = function (v) { return v === null || v === undefined ? "–" : v; };
    if (multi) { tr.appendChild(el("td", null, r.run)); }
    var c = el("td");
    var a = el("a", "case-link", r.case_id);
    a.href = r.case_href;
    c.appendChild(a);
    if (r.dataset) { c.appendChild(el("div", "muted small", r.dataset)); }
    tr.appendChild(c);
    var v = el("td", null, dash(r.variant));
    if (r.context) { v.appendChild(el("div", "muted small", r.context + " · " + (r.source || ""))); }
    tr.appendChild(v);
    tr.appendChild(el("td", null, dash(r.model)));
    tr.appendChild(el("td", null, dash(r.seed)));
    tr.appendChild(el("td", null, dash(r.group)));
    tr.appendChild(diffCell(r.pieces || []));
    var ans = el("td", "text", r.answer || "");
    if (r.error) { ans.appendChild(el("div", "bad small", "error: " + r.error)); }
    tr.appendChild(ans);
    var judge = el("td");
    (r.labels || []).forEach(function (l) {
      judge.appendChild(el("span", "label" + (l.flip ? " flip" : ""), l.question + ": " + l.label));
      judge.appendChild(document.createTextNode(" "));
    });
    judge.appendChild(el("div", "small status-" + r.judge_status, r.judge_status));
    tr.appendChild(judge);
    var flip = el("td");
    if (r.is_baseline) { flip.appendChild(el("span", "muted", "baseline")); }
    else if (r.flip) {
      flip.appendChild(el("strong", "flip", "flip"));
      if (r.noise) { flip.appendChild(el("div", "small muted", "baseline re-samples disagree too")); }
    } else { flip.textContent = r.flip === null ? "–" : "no"; }
    if (r.flip_differs) { flip.appendChild(el("div", "small differs-text", "differs between runs")); }
    tr.appendChild(flip);
    tr.appendChild(el("td", null, r.verdict || "–"));
    tr.appendChild(el("td", null, r.excluded || ""));
    return tr;
  }

  function pager(d) {
    var nav = document.getElementById("pages");
    if (!nav) { return; }
    var parts = [];
    var link = function (text, p) {
      var a = el("a", null, text);
      a.href = "#";
      a.setAttribute("data-page", String(p));
      return a;
    };
    if (d.page > 1) { parts.push(link("first", 1), document.createTextNode(" "), link("previous", d.page - 1)); }
    parts.push(document.createTextNode(" page " + d.page + " of " + d.pages + " "));
    if (d.page < d.pages) { parts.push(link("next", d.page + 1), document.createTextNode(" "), link("last", d.pages)); }
    nav.replaceChildren.apply(nav, parts);
  }

  function render(d) {
    var count = document.getElementById("count");
    var strong = el("strong", null, d.total);
    count.replaceChildren(strong, document.createTextNode(" of " + d.n_all + " rows" +
      (d.total ? " · page " + d.page + " of " + d.pages : "")));
    var notes = document.getElementById("notes");
    notes.replaceChildren.apply(notes, d.notes.map(function (n) { return el("p", "note", n); }));
    renderSummary(d.summary);
    document.getElementById("export").href = d.export_href;
    var tbody = document.querySelector("#grid tbody");
    tbody.replaceChildren.apply(tbody, d.rows.map(function (r) { return row(r, d.multi); }));
    pager(d);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("filters");
    var grid = document.getElementById("grid");
    if (form && grid && window.fetch && window.URLSearchParams) {
      var timer = null, seq = 0;
      var state = document.getElementById("live-state");
      var query = function (page) {
        var q = new URLSearchParams();
        new FormData(form).forEach(function (v, k) { if (v !== "") { q.append(k, v); } });
        if (page > 1) { q.set("page", String(page)); }
        return q;
      };
      var load = function (page) {
        var q = query(page || 1), mine = ++seq;
        state.textContent = "updating …";
        fetch("/api/grid?" + q.toString(), {credentials: "same-origin", headers: {accept: "application/json"}})
          .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
          .then(function (d) {
            if (mine !== seq) { return; }
            render(d);
            history.replaceState(null, "", "/" + (q.toString() ? "?" + q.toString() : ""));
            state.textContent = "filters apply as you type";
            var n = Number(document.body.getAttribute("data-updates") || "0") + 1;
            document.body.setAttribute("data-updates", String(n));
          })
          .catch(function (e) { if (mine === seq) { state.textContent = "could not update (" + e.message + "): press apply"; } });
      };
      form.addEventListener("submit", function (ev) { ev.preventDefault(); load(1); });
      form.querySelectorAll("select, input[type=checkbox]").forEach(function (e) {
        e.addEventListener("change", function () { load(1); });
      });
      form.querySelectorAll("input[type=search]").forEach(function (e) {
        e.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { load(1); }, 250); });
      });
      var nav = document.getElementById("pages");
      if (nav) {
        nav.addEventListener("click", function (ev) {
          var a = ev.target.closest("a[data-page]");
          if (a) { ev.preventDefault(); load(Number(a.getAttribute("data-page"))); }
        });
      }
    }
    document.documentElement.setAttribute("data-js-ready", "1");
  });
}());
