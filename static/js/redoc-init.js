/* Starts ReDoc on templates/api/redoc.html from a file, not an inline script (the site's CSP: script-src 'self'). */
(function () {
  var container = document.getElementById("redoc-container");
  Redoc.init(container.getAttribute("data-schema-url"), { hideDownloadButton: false }, container);
})();
