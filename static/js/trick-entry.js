// Trick-by-trick entry: a phone client of /api/v1/matches/{id}/trick-entry/ (the draft lives on the server).
(function () {
  var cfg = JSON.parse(document.getElementById("trick-config").textContent);
  var W = cfg.words;
  window.CARD_WORDS = { BJ: W.big_joker, LJ: W.small_joker };  // jokers in messages (card-words.js)
  var draft = null;
  var csrf = (JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"]) || "";
  var $ = function (id) { return document.getElementById(id); };

  function call(method, path, body) {
    var headers = { "Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json" };
    if (cfg.token) headers["X-Table-Token"] = cfg.token;
    return fetch(cfg.api + path, { method: method, headers: headers, credentials: "same-origin",
                                   body: body ? JSON.stringify(body) : undefined })
      .then(function (r) {
        if (r.status === 204) return { status: 204, data: {} };
        return r.json().then(function (data) { return { status: r.status, data: data }; });
      });
  }
  function status(text, bad) { var s = $("trick-status"); s.textContent = text || ""; s.classList.toggle("error", !!bad); }
  function messages(data) {
    var out = [];
    if (data.issues) data.issues.forEach(function (i) { out.push(i.message); });
    else if (data.errors) Object.keys(data.errors).forEach(function (k) { out.push(k + ": " + data.errors[k].join(" ")); });
    else if (data.detail) out.push(data.detail);
    return window.cardWords(out.join(" "));  // the engine writes cards as codes ("D3"): people read "♦3"
  }
  // Seats are 0-based in the API; people read them 1–4 (or the winds) with the player: "Seat 1 · Zhang Wei".
  function seatNo(s) { return s + 1; }
  function seatName(s) { return (cfg.seat_labels && cfg.seat_labels[s]) || (W.seat + " " + seatNo(s)); }
  // Cards as people read them: "SA H10 BJ" → "♠A ♥10 大王" (the input keeps the codes the API takes).
  var SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
  function cardText(codes) {
    return String(codes || "").trim().split(/\s+/).filter(Boolean).map(function (c) {
      var u = c.toUpperCase();
      if (u === "LJ" || u === "SJ") return W.small_joker;
      if (u === "BJ") return W.big_joker;
      return SUIT[u.charAt(0)] ? SUIT[u.charAt(0)] + u.slice(1) : c;
    }).join(" ");
  }
  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  // The hand's result in words (the server's summary: small tables and the scoring core's sentences), never JSON.
  function showSummary(box, summary) {
    box.innerHTML = "";
    if (!summary) return;
    (summary.tables || []).forEach(function (t) {
      var table = el("table", undefined, "table compact result-table");
      if (t.head) {
        var tr = el("tr"); t.head.forEach(function (h) { tr.appendChild(el("th", h)); });
        table.appendChild(el("thead")).appendChild(tr);
      }
      var body = table.appendChild(el("tbody"));
      t.rows.forEach(function (row) {
        var tr = el("tr");
        row.forEach(function (cell, i) { tr.appendChild(el(i === 0 && !t.head ? "th" : "td", cell)); });
        body.appendChild(tr);
      });
      box.appendChild(table);
    });
    if (summary.sentences && summary.sentences.length) {
      var ul = el("ul", undefined, "result-sentences");
      summary.sentences.forEach(function (line) { ul.appendChild(el("li", line)); });
      box.appendChild(ul);
    }
  }

  function showFacts() {
    $("facts-panel").hidden = false; $("play-panel").hidden = true;
    if (draft) {
      var f = draft.facts;
      if (f.dealer !== undefined && $("f-dealer")) $("f-dealer").value = String(f.dealer);
      $("f-trump").value = f.trump || "NT";
      if ($("f-bid") && f.bid !== undefined) $("f-bid").value = f.bid;
      $("f-buried").value = f.buried || "";
      $("f-declarations").value = (f.declarations || []).map(function (d) { return seatNo(d.seat) + ": " + d.cards; }).join("\n");
      $("facts-save").textContent = $("facts-save").textContent;
    }
  }
  function factsBody() {
    var facts = { trump: $("f-trump").value };
    if ($("f-dealer") && $("f-dealer").value !== "") facts.dealer = parseInt($("f-dealer").value, 10);
    if ($("f-bid") && $("f-bid").value !== "") facts.bid = parseInt($("f-bid").value, 10);
    if ($("f-buried").value.trim()) facts.buried = $("f-buried").value.trim();
    var decl = $("f-declarations").value.split("\n").map(function (l) { return l.trim(); }).filter(Boolean);
    if (decl.length) facts.declarations = decl.map(function (l) {
      var parts = l.split(":"); return { seat: parseInt(parts[0], 10) - 1, cards: (parts[1] || "").trim() };  // typed 1–4
    });
    return facts;
  }

  function render(d) {
    draft = d;
    $("facts-panel").hidden = true; $("play-panel").hidden = false;
    var der = d.derived, tricks = der.tricks, hf = d.hand_facts;
    var last = tricks.length ? tricks[tricks.length - 1] : null;
    var open = last && last.next_seat !== null && last.next_seat !== undefined;
    var number = open ? tricks.length : tricks.length + 1;
    $("trick-title").textContent = der.complete ? W.hand_title : W.trick + " " + number;
    $("hand-facts").textContent = [W.variant, hf.level ? W.level + " " + hf.level : "", SUIT[hf.trump] || W.no_trump,
                                   hf.bid ? W.bid + " " + hf.bid : ""].filter(Boolean).join(" · ");
    var plays = $("trick-plays"); plays.innerHTML = "";
    (open ? last.plays : []).forEach(function (p) {
      var li = document.createElement("li"); li.textContent = seatName(p.seat) + ": " + cardText(p.cards) + (p.forced ? " → " + cardText(p.forced) : "");
      plays.appendChild(li);
    });
    var next = der.next_seat;
    $("to-play").textContent = der.complete ? W.complete : (next === null || next === undefined ? "" :
      seatName(next) + " " + (open ? W.to_play : W.leads));
    $("play-enter").disabled = der.complete; $("play-enter").style.display = der.complete ? "none" : "";
    $("play-input").hidden = der.complete;  // every card is played: nothing more to tap
    // the picker fills the cards of the seat whose turn it is, without a tap in the field first
    $("play-cards").dataset.label = (next === null || next === undefined) ? "" : seatName(next);
    if (window.cardPicker && (!window.cardPicker.target() || window.cardPicker.target() === $("play-cards") ||
                              window.cardPicker.target().hidden)) window.cardPicker.select($("play-cards"));
    var pts = $("points"); pts.innerHTML = "";
    der.points.forEach(function (p, s) { var li = document.createElement("li"); li.textContent = seatName(s) + ": " + p + " " + W.points; pts.appendChild(li); });
    var fl = $("flags"); fl.innerHTML = "";
    der.flags.concat(der.errors).forEach(function (f) {
      var li = document.createElement("li"); li.className = f.blocking ? "error" : "flag";
      li.dataset.code = f.code; li.textContent = (f.blocking ? W.error : W.flag) + " (" + f.code + "): " + f.message; fl.appendChild(li);
    });
    var done = $("tricks-done"); done.innerHTML = "";
    tricks.forEach(function (t, i) {
      if (t.winner === null || t.winner === undefined) return;
      var li = document.createElement("li");
      li.textContent = t.plays.map(function (p) { return seatNo(p.seat) + ": " + cardText(p.cards); }).join(" | ") + " — " + seatName(t.winner) + " " + W.wins + (t.points ? " (+" + t.points + ")" : "");
      done.appendChild(li);
    });
    $("finish-panel").hidden = !der.complete;
    showSummary($("derived-outcome"), der.complete ? der.summary : null);
  }

  function load() {
    if (!cfg.draft) { cfg.draft = true; draft = null; showFacts(); return; }  // no hand being entered yet
    call("GET", "").then(function (r) {
      if (r.status === 200) { render(r.data); } else if (r.status === 404) { draft = null; showFacts(); }
      else status(messages(r.data), true);
    });
  }
  function answer(r, ok) {
    if (r.status === 409) { status(r.data.detail || W.stale, true); if (r.data.current) render(r.data.current); else load(); return; }
    if (r.status >= 400) { status(messages(r.data), true); return false; }
    status(""); if (ok) ok(r.data); return true;
  }

  $("facts-form").addEventListener("submit", function (e) {
    e.preventDefault();
    if (!$("f-trump").value) { $("facts-errors").textContent = W.choose_trump; $("f-trump").focus(); return; }
    var body = { facts: factsBody() };
    var method = draft ? "PUT" : "POST";
    if (draft) body.version = draft.version;
    call(method, "", body).then(function (r) {
      if (r.status >= 400 && r.status !== 409) { $("facts-errors").textContent = messages(r.data); return; }
      $("facts-errors").textContent = ""; answer(r, render);
    });
  });
  $("play-failed").addEventListener("change", function () { $("play-forced").hidden = !this.checked; });
  $("play-enter").addEventListener("click", function () {
    var cards = $("play-cards").value.trim();
    if (!cards) { $("play-errors").textContent = W.no_cards; return; }
    var play = { seat: draft.derived.next_seat, cards: cards };
    if ($("play-failed").checked && $("play-forced").value.trim()) play.forced = $("play-forced").value.trim();
    call("POST", "plays/", { version: draft.version, play: play }).then(function (r) {
      if (r.status === 400) { $("play-errors").textContent = messages(r.data); return; }
      $("play-errors").textContent = "";
      answer(r, function (d) {
        $("play-cards").value = ""; $("play-forced").value = ""; $("play-failed").checked = false; $("play-forced").hidden = true;
        render(d);
        // a keyboard goes on typing; a phone keeps its keyboard closed (the picker fills the next seat's cards)
        if (!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches)) $("play-cards").focus();
      });
    });
  });
  $("play-undo").addEventListener("click", function () {
    call("POST", "undo/", { version: draft.version }).then(function (r) { answer(r, render); });
  });
  $("edit-facts").addEventListener("click", showFacts);
  $("discard").addEventListener("click", function () {
    if (!window.confirm(W.confirm_discard)) return;
    call("POST", "discard/", { version: draft.version }).then(function (r) { answer(r, function () { draft = null; showFacts(); }); });
  });
  $("export").addEventListener("click", function (e) {
    e.preventDefault();
    call("GET", "record/").then(function (r) {
      var blob = new Blob([JSON.stringify(r.data, null, 1)], { type: "application/json" });
      var a = document.createElement("a"); a.href = URL.createObjectURL(blob); a.download = "hand-record.json"; a.click();
    });
  });
  $("finish").addEventListener("click", function () {
    call("POST", "finish/", { version: draft.version, ruling: $("ruling").value }).then(function (r) {
      answer(r, function (d) {
        draft = null; status(String(W.recorded).replace("{n}", d.hand.number));
        $("play-panel").hidden = true; $("facts-panel").hidden = false;
        var old = $("recorded-result"); if (old) old.remove();
        var res = el("section", undefined, "panel recorded-result"); res.id = "recorded-result";
        res.appendChild(el("h2", W.result));
        var box = res.appendChild(el("div")); showSummary(box, d.summary);
        var links = res.appendChild(el("p", undefined, "actions"));
        if (d.links) {
          var replay = links.appendChild(el("a", W.replay, "button")); replay.href = d.links.replay; replay.id = "recorded-replay";
          var back = links.appendChild(el("a", W.match, "button")); back.href = d.links.match; back.id = "recorded-match";
        }
        $("trick-status").after(res);
      });
    });
  });
  load();
})();
