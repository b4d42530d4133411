// The header's language switch changes the language as soon as one is chosen (the form's button is for
// browsers without scripts). A static file, as the Content-Security-Policy runs no inline script.
document.addEventListener("change", (event) => {
  if (event.target.id === "language-switch") event.target.form.submit();
});
