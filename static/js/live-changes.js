// The live pages follow the tournament without a reload. The server pushes the tournament's change stamp
// on a WebSocket (ws/live/tournaments/<id>/: {"type": "changed", "stamp": …} at once and after every
// change); when the stamp moves, "tournament-changed" is fired on <body> and the live fragments
// (hx-trigger="tournament-changed from:body") fetch themselves again. While the socket is not open
// (no WebSocket, refused, a proxy without upgrades, reconnecting with backoff), the page falls back to
// asking the change endpoint every second (answered from the cache alone: 204 while nothing changed).
// A change that arrives while the tab is hidden is told when it shows again.
(function () {
  var marker = document.getElementById("live-changes");
  if (!marker || !window.fetch) return;
  var url = marker.dataset.url, stamp = marker.dataset.stamp || "", busy = false;
  var socket = null, open = false, delay = 1000, pending = false, poller = null;

  function changed(next) {
    if (!next || next === stamp) return;
    stamp = marker.dataset.stamp = next;
    if (document.hidden) { pending = true; return; }
    document.body.dispatchEvent(new CustomEvent("tournament-changed", { bubbles: true }));
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && pending) {
      pending = false;
      document.body.dispatchEvent(new CustomEvent("tournament-changed", { bubbles: true }));
    }
  });

  // ---- fallback: the stamp endpoint, every second while the socket is not open
  function tick() {
    if (open || busy || document.hidden) return;
    busy = true;
    fetch(url + "?since=" + encodeURIComponent(stamp), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status !== 200) return null;
        return response.json().then(function (data) { changed(data.stamp); });
      })
      .catch(function () { /* offline for a moment: the next tick tries again */ })
      .then(function () { busy = false; });
  }
  function poll(on) {
    if (on && !poller) poller = setInterval(tick, 1000);
    if (!on && poller) { clearInterval(poller); poller = null; }
  }

  // ---- the push
  function connect() {
    if (!marker.dataset.ws || !window.WebSocket) { poll(true); return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try { socket = new WebSocket(scheme + location.host + marker.dataset.ws); }
    catch (e) { poll(true); return; }
    socket.onopen = function () { open = true; delay = 1000; poll(false); marker.dataset.live = "push"; };
    socket.onmessage = function (e) {
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      if (data.type === "changed") changed(data.stamp);
    };
    socket.onclose = function () {
      open = false; socket = null; marker.dataset.live = "poll";
      poll(true);
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);  // 1, 2, 4 … 30 s; polling meanwhile
    };
  }
  connect();
})();
