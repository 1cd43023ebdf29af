(function () {
  "use strict";
  // Records script errors, failed resource loads, CSP violations, console.error and
  // alert/confirm/prompt calls in <html data-js-errors>, so a headless browser test can
  // read them from the DOM. The page itself never calls any of them.
  var root = document.documentElement, errors = [];
  function record(kind, msg) {
    errors.push(kind + ": " + String(msg).slice(0, 300));
    root.setAttribute("data-js-errors", errors.join(" | "));
  }
  window.addEventListener("error", function (e) {
    var t = e.target;
    record("error", e.message || (t && t.tagName ? "failed to load " + t.tagName : "error"));
  }, true);
  window.addEventListener("unhandledrejection", function (e) { record("rejection", e.reason); });
  document.addEventListener("securitypolicyviolation", function (e) {
    record("csp", e.violatedDirective + " " + e.blockedURI);
  });
  var consoleError = console.error;
  console.error = function () {
    record("console", Array.prototype.join.call(arguments, " "));
    return consoleError.apply(console, arguments);
  };
  window.alert = function (m) { record("alert", m); };
  window.confirm = function (m) { record("confirm", m); return false; };
  window.prompt = function (m) { record("prompt", m); return null; };

  document.addEventListener("DOMContentLoaded", function () {
    // Contents: mark the section in view.
    var links = {}, sections = document.querySelectorAll("section[data-section]");
    document.querySelectorAll("#toc > ol > li > a").forEach(function (a) {
      links[a.getAttribute("href").slice(1)] = a;
    });
    if ("IntersectionObserver" in window) {
      var io = new IntersectionObserver(function (entries) {
        entries.forEach(function (en) {
          var a = links[en.target.id];
          if (a && en.isIntersecting) {
            Object.keys(links).forEach(function (k) { links[k].classList.remove("active"); });
            a.classList.add("active");
          }
        });
      }, { rootMargin: "0px 0px -70% 0px" });
      sections.forEach(function (s) { io.observe(s); });
    }
    // Served by `clinaudit view` (<html data-viewer>): show the links to the viewer's grid of each verdict's and
    // finding's cases. In the static file they stay hidden (the file needs no server).
    if (root.hasAttribute("data-viewer")) {
      document.querySelectorAll(".viewer-link").forEach(function (el) { el.hidden = false; });
    }
    root.setAttribute("data-js-ready", String(sections.length));
  });
})();
