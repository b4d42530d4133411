// The drift list and report while checks they show are queued or running: asks every 3 seconds which
// checks are still under way, and loads the page again once one of this page's has finished (as the
// settlement page follows its run). A static file, as the Content-Security-Policy runs no inline script.
(function () {
  const box = document.getElementById("vh-drift-running");
  if (!box) return;
  const mine = box.dataset.ids.split(",").map(Number);
  async function poll() {
    try {
      const answer = await (await fetch(box.dataset.url, {credentials: "same-origin"})).json();
      if (mine.some((id) => !answer.running.includes(id))) { window.location.reload(); return; }
    } catch (error) {  // the server restarting, a lost connection: ask again later
    }
    setTimeout(poll, 3000);
  }
  setTimeout(poll, 3000);
})();
