// clinaudit view: submit the filter form when a select or checkbox changes. Nothing else runs on the page.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var form = document.getElementById("filters");
  if (form) {
    form.querySelectorAll(".auto").forEach(function (el) {
      el.addEventListener("change", function () { form.submit(); });
    });
  }
  document.documentElement.setAttribute("data-js-ready", "1");
});
