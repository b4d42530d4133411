// Starts Redoc on the API docs page with the settings and schema address the page carries (a static
// file, as the Content-Security-Policy runs no inline script).
(function () {
  const container = document.getElementById("redoc-container");
  const settings = JSON.parse(document.getElementById("redoc-settings").textContent);
  Redoc.init(container.dataset.schemaUrl, settings, container);
})();
