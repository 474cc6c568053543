// The live pages follow the tournament without a reload: every second they ask the change endpoint
// (answered from the cache alone: 204 while nothing changed) and, when the stamp moved, fire
// "tournament-changed" on <body>; the live fragments (hx-trigger="tournament-changed from:body") then
// fetch themselves again. Paused while the tab is hidden.
(function () {
  var marker = document.getElementById("live-changes");
  if (!marker || !window.fetch) return;
  var url = marker.dataset.url, stamp = marker.dataset.stamp || "", busy = false;
  function tick() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?since=" + encodeURIComponent(stamp), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status !== 200) return null;
        return response.json().then(function (data) {
          if (!data.stamp || data.stamp === stamp) return;
          stamp = marker.dataset.stamp = data.stamp;
          document.body.dispatchEvent(new CustomEvent("tournament-changed", { bubbles: true }));
        });
      })
      .catch(function () { /* offline for a moment: the next tick tries again */ })
      .then(function () { busy = false; });
  }
  setInterval(tick, 1000);
})();
