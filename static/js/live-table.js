// The live featured table: the server pushes the state on a WebSocket (ws/live/matches/<id>/:
// {"type": "state", "state": …} at once and after every change). While the socket is not open (no
// WebSocket, refused, reconnecting with backoff) the page falls back to the Server-Sent Events stream
// (one event per change), as it did before.
(function () {
  var root = document.getElementById("live");
  if (!root) return;
  var W = JSON.parse(document.getElementById("live-words").textContent);
  var SYM = { S: "♠", H: "♥", C: "♣", D: "♦" };
  function chip(code) {
    if (code === "BJ") return '<span class="red">大王</span>';
    if (code === "LJ") return "小王";
    var s = code.charAt(0);
    return '<span class="' + (s === "H" || s === "D" ? "red" : "") + '">' + (SYM[s] || s) + code.slice(1) + "</span>";
  }
  function chips(text) { return (text || "").split(/\s+/).filter(Boolean).map(chip).join(" "); }
  // "Trick {n}" / "第 {n} 轮": the page's numbered words with the number filled in
  function numbered(word, n) { return String(word).replace("{n}", n); }
  function esc(t) { var d = document.createElement("div"); d.textContent = t; return d.innerHTML; }
  // Seats are 0-based in the state; people read them 1–4 (or the winds) with the player (W.seat_labels).
  function seatName(s) { return (W.seat_labels && W.seat_labels[s]) || (W.seat + " " + (s + 1)); }
  function show(st) {
    root.dataset.version = st.version + "/" + (st.hand ? st.hand.version : 0);
    // the variant and "no trump" by their names in the page's language (never the code "tractor" or "NT")
    var summary = [esc(root.dataset.variantName || st.variant), W.hands + ": " + st.hands_played];
    if (st.levels) summary.push(W.levels + ": " + st.levels.join(" – "));
    if (st.totals) summary.push(W.totals + ": " + st.totals.join(" / "));
    var h = st.hand, seats = document.getElementById("live-seats");
    if (h) {
      summary.push(numbered(W.hand_n, h.number), W.trump + ": " + (h.trump ? chip(h.trump) : esc(root.dataset.noTrump || "NT")) + (h.level ? " " + esc(h.level) : ""));
      if (h.dealer !== null && h.dealer !== undefined) summary.push(W.dealer + ": " + esc(seatName(h.dealer)));
    }
    document.getElementById("live-summary").innerHTML = summary.join(" · ");
    var trick = document.getElementById("live-trick");
    if (!h) { trick.textContent = W.waiting; }
    else if (h.trick) {
      var t = h.trick;
      trick.textContent = numbered(W.trick_n, t.number) + (t.winner !== null && t.winner !== undefined
        ? " · " + seatName(t.winner) + " " + W.wins + " (+" + t.points + ")" : "");
    } else trick.textContent = numbered(W.trick_n, 1);
    var html = "";
    seats.className = "live-seats " + (st.seats.length === 4 ? "four" : "many");
    st.seats.forEach(function (_name, s) {
      var onTable = "";
      if (h && h.trick) h.trick.plays.forEach(function (p) { if (p.seat === s) onTable = chips(p.forced || p.cards); });
      var toPlay = h && h.next_seat === s;
      html += '<div class="live-seat' + (toPlay ? " to-play" : "") + '" data-seat="' + s + '"><h3>' + esc(seatName(s)) +
        (toPlay ? " <small>" + W.to_play + "</small>" : "") + "</h3>" +
        '<div class="on-table">' + onTable + "</div>" +
        (h ? '<p class="points">' + h.points[s] + " " + W.points + '</p><p class="played">' + chips(h.played[s].join(" ")) + "</p>" : "") +
        "</div>";
    });
    seats.innerHTML = html;
  }
  show(JSON.parse(document.getElementById("live-initial").textContent));
  var conn = document.getElementById("live-conn");
  var source = null, socket = null, delay = 1000;
  function stream(on) {  // the fallback
    if (on && !source && window.EventSource) {
      source = new EventSource(root.dataset.stream);
      source.addEventListener("state", function (e) { show(JSON.parse(e.data)); conn.textContent = W.live; });
      source.onerror = function () { conn.textContent = W.reconnecting; };
    }
    if (!on && source) { source.close(); source = null; }
  }
  function connect() {
    if (!root.dataset.ws || !window.WebSocket) { stream(true); return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try { socket = new WebSocket(scheme + location.host + root.dataset.ws); }
    catch (e) { stream(true); return; }
    socket.onopen = function () { delay = 1000; stream(false); conn.textContent = W.live; root.dataset.live = "push"; };
    socket.onmessage = function (e) {
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      if (data.type === "state") { show(data.state); conn.textContent = W.live; }
    };
    socket.onclose = function () {
      socket = null; root.dataset.live = "stream";
      stream(true);
      if (!source) conn.textContent = W.reconnecting;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);  // 1, 2, 4 … 30 s; the stream meanwhile
    };
  }
  connect();
})();
