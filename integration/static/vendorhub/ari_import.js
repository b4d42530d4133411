// A CSV import's progress, polled every second while a job checks or applies it; once it is done (or
// failed) the page loads again and shows the result. A static file, as the Content-Security-Policy runs
// no inline script.
(function () {
  const box = document.getElementById("ari-import-progress");
  if (!box) return;
  async function poll() {
    let answer;
    try {
      answer = await (await fetch(box.dataset.url, {credentials: "same-origin"})).json();
    } catch (error) {  // the server restarting, a lost connection: ask again later
      setTimeout(poll, 3000);
      return;
    }
    if (!answer.running) { window.location.reload(); return; }
    box.querySelector("progress").value = answer.percent;
    box.querySelector("progress").textContent = answer.percent + " %";
    box.querySelector(".vh-import-progress-text").textContent = answer.text;
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 1000);
})();
