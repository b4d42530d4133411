// Starts Redoc on the API docs page with the settings and schema address the page carries (a static
// file, as the Content-Security-Policy runs no inline script).
(function () {
  // Redoc's side menu always renders its vendor's logo from a CDN (an <img>, hidden when it fails to load).
  // The page loads nothing from outside: that one address is given no source, so that the browser never
  // asks for it (and the policy has nothing to refuse); the image's own error handler then hides it.
  const outside = "https://cdn.redoc.ly/";
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLImageElement && name === "src" && String(value).startsWith(outside)) {
      value = "";
    }
    return setAttribute.call(this, name, value);
  };
  const source = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...source,
    set(value) {
      source.set.call(this, String(value).startsWith(outside) ? "" : value);
    },
  });

  const container = document.getElementById("redoc-container");
  const settings = JSON.parse(document.getElementById("redoc-settings").textContent);
  Redoc.init(container.dataset.schemaUrl, settings, container);
})();
