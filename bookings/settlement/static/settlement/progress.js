// A running reconciliation's progress, polled every second until it is done or failed (then the report
// loads). A static file, as the Content-Security-Policy runs no inline script.
(function () {
  const box = document.getElementById("settlement-progress");
  if (!box) return;
  const template = box.dataset.template;
  async function poll() {
    let answer;
    try {
      answer = await (await fetch(box.dataset.url, {credentials: "same-origin"})).json();
    } catch (error) {  // the server restarting, a lost connection: ask again later
      setTimeout(poll, 3000);
      return;
    }
    if (answer.status === "done" || answer.status === "failed") { window.location.reload(); return; }
    const bar = box.querySelector("progress");
    box.querySelector(".settlement-status").textContent = answer.status_label;
    if (answer.expected !== null) {
      bar.max = Math.max(answer.expected, 1); bar.value = answer.seen;
      box.querySelector(".settlement-count").textContent = template
        .replace("%(seen)s", answer.seen.toLocaleString()).replace("%(expected)s", answer.expected.toLocaleString());
    }
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 1000);
})();
