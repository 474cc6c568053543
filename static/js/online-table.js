// Online play (docs/online.md): the "Play" form's variant switch, and the table — a client of
// ws/play/<code>/. The server is the only authority: this script shows the last `state` it was sent,
// sends one frame per tap, and shows a refused frame's message; nothing changes until the next state.
(function () {
  "use strict";

  // ------------------------------------------------------------------ the "Play" form
  var create = document.getElementById("online-create");
  if (create) {
    var radios = create.querySelectorAll("input[name=variant]");
    var seatingTouched = false;
    var seatingBox = create.querySelector("[data-seating-defaults]");
    var defaults = {};
    if (seatingBox) seatingBox.dataset.seatingDefaults.trim().split(/\s+/).forEach(function (pair) {
      var kv = pair.split("="); defaults[kv[0]] = kv[1];
    });
    var chosenVariant = function () {
      var c = create.querySelector("input[name=variant]:checked"); return c ? c.value : "";
    };
    var syncSeat = function () {
      var random = create.querySelector("input[name=seating]:checked");
      var box = document.getElementById("seat-choice");
      if (box) box.hidden = !!random && random.value === "random";
      var players = create.querySelector("select[name=players]");
      var limit = players && !players.closest("[hidden]") ? parseInt(players.value, 10) : 4;
      var seat = create.querySelector("select[name=seat]");
      if (seat) Array.prototype.forEach.call(seat.options, function (o) {
        var off = o.value !== "" && parseInt(o.value, 10) >= limit;
        o.hidden = off; o.disabled = off;
        if (off && o.selected) seat.value = "";
      });
    };
    var sync = function (fromUser) {
      var v = chosenVariant();
      create.querySelectorAll("[data-variants]").forEach(function (box) {
        box.hidden = box.dataset.variants.split(/\s+/).indexOf(v) < 0;
      });
      create.querySelectorAll(".online-options[data-variant]").forEach(function (box) {
        box.hidden = box.dataset.variant !== v;
      });
      if (fromUser && !seatingTouched && defaults[v]) {
        var r = create.querySelector("input[name=seating][value=" + defaults[v] + "]");
        if (r) r.checked = true;
      }
      syncSeat();
    };
    radios.forEach(function (r) { r.addEventListener("change", function () { sync(true); }); });
    create.querySelectorAll("input[name=seating]").forEach(function (r) {
      r.addEventListener("change", function () { seatingTouched = true; syncSeat(); });
    });
    var players = create.querySelector("select[name=players]");
    if (players) players.addEventListener("change", syncSeat);
    sync(false);
  }

  // ------------------------------------------------------------------ the table
  var cfgEl = document.getElementById("online-config");
  if (!cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent);
  var W = cfg.words;
  window.CARD_WORDS = { BJ: W.big_joker, LJ: W.little_joker };  // jokers in messages (card-words.js)
  var LANG = cfg.lang;
  var root = document.getElementById("online-table");
  var joinBox = document.getElementById("online-join");
  var fullNote = document.getElementById("online-full");
  var SEAT_KEY = "online-seat-" + cfg.code, HOST_KEY = "online-host-" + cfg.code;

  var memory = {};
  var store = {
    get: function (k) { try { return window.localStorage.getItem(k) || ""; } catch (e) { return memory[k] || ""; } },
    set: function (k, v) { try { window.localStorage.setItem(k, v); } catch (e) { memory[k] = v; } },
    del: function (k) { try { window.localStorage.removeItem(k); } catch (e) { delete memory[k]; } }
  };
  // The redirect after creating or joining carries the secrets in the fragment: keep them, clean the bar.
  if (location.hash.length > 1) {
    var params = new URLSearchParams(location.hash.slice(1));
    if (params.get("seat")) store.set(SEAT_KEY, params.get("seat"));
    if (params.get("host")) store.set(HOST_KEY, params.get("host"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  var token = store.get(SEAT_KEY), hostToken = store.get(HOST_KEY);

  function fmt(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function button(cls, text, key, onClick) {
    var b = el("button", "button " + (cls || ""), text);
    b.type = "button";
    if (key) b.dataset.key = key;
    if (onClick) b.addEventListener("click", onClick);
    return b;
  }

  // Cards: "H2" → face "♥2" (red), read aloud "红桃 2" / "2 of hearts".
  var SUIT_WORD = { S: W.spades, H: W.hearts, C: W.clubs, D: W.diamonds };
  var RANK_WORD = { A: W.ace, K: W.king, Q: W.queen, J: W.jack };
  function card(name) {
    if (name === "BJ" || name === "LJ") {
      var big = name === "BJ";
      return { name: name, suit: "", rank: big ? W.big_joker_short : W.little_joker_short, symbol: "",
               red: big, joker: true, text: big ? W.big_joker : W.little_joker,
               label: big ? W.big_joker : W.little_joker };
    }
    var s = name.charAt(0), r = name.slice(1);
    return { name: name, suit: s, rank: r, symbol: cfg.suits[s] || s, red: s === "H" || s === "D", joker: false,
             text: (cfg.suits[s] || s) + r,
             label: LANG === "en" ? fmt(W.card_of, { rank: RANK_WORD[r] || r, suit: SUIT_WORD[s] || s })
               : (SUIT_WORD[s] || s) + " " + r };
  }
  function cardsText(names) { return (names || []).map(function (n) { return card(n).text; }).join(" "); }
  function chips(names, cls) {
    var box = el("span", "ot-chips" + (cls ? " " + cls : ""));
    (names || []).forEach(function (n) {
      var c = card(n);
      var chip = el("span", "ot-chip" + (c.red ? " red" : "") + (c.joker ? " joker" : ""), c.text);
      chip.setAttribute("aria-label", c.label);
      box.appendChild(chip);
    });
    return box;
  }

  // ------------------------------------------------------------------ connection
  var ws = null, attempt = 0, replaced = false, state = null, retryTimer = null, pingTimer = null;
  var selected = [], handKey = "", showLast = false, errorText = "", conn = "";

  function send(msg) {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(msg)); return true; }
    return false;
  }
  function connect() {
    clearTimeout(retryTimer);
    conn = attempt ? W.reconnecting : W.connecting;
    renderConn();
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var sock = new WebSocket(proto + location.host + cfg.ws);
    ws = sock;
    sock.onopen = function () {
      attempt = 0;
      send({ type: "hello", token: token, host: hostToken });
      clearInterval(pingTimer);
      pingTimer = setInterval(function () { send({ type: "ping" }); }, 25000);
    };
    sock.onmessage = function (e) {
      var m;
      try { m = JSON.parse(e.data); } catch (x) { return; }
      onMessage(m);
    };
    sock.onclose = function (e) {
      if (ws !== sock) return;
      ws = null;
      clearInterval(pingTimer);
      if (replaced || e.code === 4001) { replaced = true; renderConn(); return; }
      attempt += 1;
      conn = W.reconnecting;
      renderConn();
      retryTimer = setTimeout(connect, Math.min(15000, 400 * Math.pow(2, Math.min(attempt, 6))));
    };
  }
  function reconnectNow() {
    replaced = false; attempt = 0;
    if (ws) { var old = ws; ws = null; try { old.close(); } catch (e) { /* closed */ } }
    connect();
  }

  function onMessage(m) {
    if (m.type === "state") {
      conn = "";
      state = m;
      clockAt = monotonic();
      if (resendOnState) {
        var again = resendOnState; resendOnState = null;
        var extra = {};
        Object.keys(again).forEach(function (k) { if (["type", "id", "version"].indexOf(k) < 0) extra[k] = again[k]; });
        act(again.type, extra);
      }
      if (token && (m.you.seat === null || m.you.seat === undefined)) lostSeat();
      render();
    } else if (m.type === "joined") {
      token = m.token; store.set(SEAT_KEY, token); reconnectNow();
    } else if (m.type === "error") {
      if (m.code === "stale") {
        // A fresh state follows; a seat's "ready", a rematch or the host's bot seat still mean the same on it:
        // send them again then. A play is not resent: the table it was chosen for has changed.
        if (pendingMsg && pendingMsg.id === m.id && RESEND.indexOf(pendingMsg.type) >= 0) resendOnState = pendingMsg;
        pending = null; pendingMsg = null;
        return;
      }
      if (m.code === "not_seated" && token && !pending) { lostSeat(); return; }
      pending = null;
      errorText = window.cardWords((m.message && (m.message[LANG] || m.message.en)) || m.code);  // "D3" → "♦3"
      renderError();
    } else if (m.type === "replaced") {
      replaced = true; conn = ""; renderConn();
    }
  }
  function lostSeat() {
    token = ""; store.del(SEAT_KEY);
    errorText = W.lost_seat;
    showJoin(true);
    renderError();
  }

  var pending = null, pendingMsg = null, resendOnState = null;
  var RESEND = ["ready", "rematch", "bot"];
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  function act(type, extra) {
    if (!state) return;
    var msg = { type: type, id: newId(), version: state.version };
    Object.keys(extra || {}).forEach(function (k) { msg[k] = extra[k]; });
    errorText = "";
    renderError();
    pending = msg.id;
    pendingMsg = msg;
    if (!send(msg)) { pending = null; pendingMsg = null; }
  }

  // ------------------------------------------------------------------ join / watch
  function showJoin(show) {
    if (joinBox) joinBox.hidden = !show;
    if (fullNote) fullNote.hidden = !show;
  }
  var watch = document.getElementById("watch");
  if (watch) {
    watch.hidden = false;
    watch.addEventListener("click", function () { showJoin(false); root.scrollIntoView(); });
  }
  if (token) showJoin(false);

  // ------------------------------------------------------------------ render
  var els = {};
  function skeleton() {
    root.innerHTML = "";
    els.conn = root.appendChild(el("p", "ot-conn"));
    els.conn.setAttribute("role", "status");
    els.status = root.appendChild(el("div", "ot-status"));
    els.error = root.appendChild(el("p", "ot-error alert error"));
    els.error.setAttribute("role", "alert");
    els.error.hidden = true;  // no empty alert box before the first error (or state)
    els.felt = root.appendChild(el("div", "ot-felt"));
    els.actions = root.appendChild(el("div", "ot-actions"));
    els.hand = root.appendChild(el("div", "ot-hand"));
    els.hand.setAttribute("role", "group");
    els.hand.setAttribute("aria-label", W.your_hand);
    els.extra = root.appendChild(el("div", "ot-extra"));
    els.live = root.appendChild(el("p", "visually-hidden"));
    els.live.setAttribute("aria-live", "polite");
  }
  skeleton();

  function renderConn() {
    els.conn.innerHTML = "";
    if (replaced) {
      els.conn.appendChild(el("span", "", W.replaced + " "));
      els.conn.appendChild(button("small", W.reopen, "reopen", reconnectNow));
    } else {
      els.conn.textContent = conn;
    }
    els.conn.hidden = !replaced && !conn;
  }
  function renderError() {
    els.error.textContent = errorText;
    els.error.hidden = !errorText;
  }

  function seatName(s) {
    // a bot seat has no name at a casual table; at a tournament's it keeps its player's (the bot plays for them)
    var seat = state && state.room.seats[s];
    return seat && seat.name ? seat.name : fmt(W.seat_n, { n: s + 1 });
  }
  function seatShort(s) {
    var me = state.you.seat;
    return s === me ? W.you : seatName(s);
  }
  function slots(n) {
    if (n === 3) return ["bottom", "right", "left"];
    if (n === 4) return ["bottom", "right", "top", "left"];
    var out = ["bottom"];
    for (var i = 1; i < n; i++) out.push("top");
    return out;
  }
  function isTrump(c, hand) {
    if (!hand.trump && hand.phase !== "play") return false;  // trump not known yet: the hand is by suit
    if (c.joker) return true;
    if (hand.level && c.rank === hand.level) return true;
    return !!hand.trump && c.suit === hand.trump;
  }
  // The clock counts from the moment its state arrived (clock.remaining_ms, the server's time left when it
  // sent it), on the page's monotonic timer: the phone's own date and time may be wrong.
  function monotonic() {
    return window.performance && performance.now ? performance.now() : Date.now();
  }
  var clockAt = monotonic();
  function remaining(clock) {
    var ms = typeof clock.remaining_ms === "number" ? clock.remaining_ms - (monotonic() - clockAt)
      : clock.deadline - Date.now();
    return Math.max(0, Math.ceil(ms / 1000));
  }

  var invite = document.querySelector(".online-invite");
  var inviteClosed = false;
  function render() {
    if (!state) return;
    if (invite && !inviteClosed && state.room.seats.every(function (s) { return s.taken; })) {
      invite.open = false; inviteClosed = true;
    }
    var active = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    var hand = state.hand;
    var cards = (hand && hand.cards) || [];
    var key = (hand ? hand.number + ":" : "") + cards.join(" ");
    if (key !== handKey) { selected = []; handKey = key; }
    if (pending) pending = null;
    // What the page shows, as attributes (styles and tests read them): version, phase, whose turn.
    var me = state.you.seat, t = hand && !hand.result ? hand.to_act : null;
    root.dataset.version = state.version;
    root.dataset.status = state.room.status;
    root.dataset.phase = hand ? hand.phase : "";
    root.dataset.seat = me === null || me === undefined ? "" : me;
    root.dataset.turn = t && t.seat !== null && t.seat === me && (state.you.actions || []).length ? "me" : "";
    renderConn();
    renderError();
    renderStatus();
    renderFelt();
    renderActions();
    renderHand();
    renderExtra();
    if (active) {
      var again = root.querySelector('[data-key="' + active + '"]');
      if (again) again.focus();
    }
  }

  function turnText() {
    var hand = state.hand, room = state.room;
    if (room.status === "finished") return W.match_over;
    if (!hand || hand.result || hand.phase === "scored") {
      var empty = room.seats.some(function (s) { return !s.taken; });
      return empty ? W.fill_seats : W.waiting;
    }
    var t = hand.to_act || {};
    var phase = W["phase_" + (t.kind || hand.phase)] || "";
    if (t.kind === "deal") return W.dealing;
    if (t.seat === null || t.seat === undefined) return phase;
    if (t.seat === state.you.seat) return phase + " · " + W.your_turn;
    return phase + " · " + fmt(W.turn_of, { name: seatName(t.seat) });
  }
  var lastLive = "";
  function renderStatus() {
    var box = els.status;
    box.innerHTML = "";
    var text = turnText();
    var line = box.appendChild(el("p", "ot-turn", text));
    var t = state.hand && state.hand.to_act;
    if (t && t.seat === state.you.seat && !state.hand.result) line.classList.add("mine");
    if (state.clock) {
      var c = line.appendChild(el("span", "ot-clock", ""));
      c.dataset.clock = "1";
      c.textContent = " ⏱ " + fmt(W.seconds, { s: remaining(state.clock) });
    }
    if (state.you.seat === null || state.you.seat === undefined) {
      box.appendChild(el("p", "muted ot-watching", W.watching));
      if (state.room.spectator_delay) box.appendChild(el("p", "muted ot-delayed", W.delayed));
    }
    if (text !== lastLive) { els.live.textContent = text; lastLive = text; }
  }

  function renderFelt() {
    var felt = els.felt, room = state.room, hand = state.hand, me = state.you.seat;
    felt.innerHTML = "";
    var n = room.players;
    felt.className = "ot-felt players-" + n;
    var base = (me === null || me === undefined) ? 0 : me;
    var where = slots(n);
    var trick = hand && hand.trick;
    var plays = {};
    if (trick) trick.plays.forEach(function (p) { plays[p.seat] = p.cards; });
    var toAct = hand && !hand.result && hand.to_act ? hand.to_act.seat : null;
    for (var i = 0; i < n; i++) {
      var s = (base + i) % n;
      felt.appendChild(seatBox(s, where[i], plays[s], trick, toAct));
    }
    var mid = felt.appendChild(el("div", "ot-center"));
    if (hand) {
      mid.appendChild(el("p", "ot-hand-no", fmt(W.hand_n, { n: hand.number })));
      var trumpText = hand.trump ? (cfg.suits[hand.trump] || hand.trump) : (hand.phase === "play" || hand.result ? W.no_trump : "—");
      var facts = mid.appendChild(el("p", "ot-facts"));
      var tr = facts.appendChild(el("span", "ot-trump" + (hand.trump === "H" || hand.trump === "D" ? " red" : ""), W.trump + " " + trumpText));
      tr.dataset.trump = hand.trump || "";
      if (hand.level) facts.appendChild(el("span", "", W.level + " " + hand.level));
      if (hand.contract) facts.appendChild(el("span", "", fmt(W.contract, { n: hand.contract })));
    } else {
      mid.appendChild(el("p", "ot-hand-no", W.waiting));
    }
  }

  // a seat's bot by the words that name it (a stored "heuristic" seat is the normal bot)
  var BOT_NAMES = { easy: "give_easy", normal: "give_heuristic", heuristic: "give_heuristic",
                    strong: "give_strong", random: "give_random" };

  function seatBox(s, where, play, trick, toAct) {
    var room = state.room, hand = state.hand, seat = room.seats[s], me = state.you.seat;
    var box = el("div", "ot-seat at-" + where);
    box.dataset.seat = s;
    if (s === me) box.classList.add("me");
    if (toAct === s) box.classList.add("to-act");
    var head = box.appendChild(el("div", "ot-seat-head"));
    var dot = head.appendChild(el("span", "ot-dot" + (seat.connected ? " on" : "")));
    dot.setAttribute("role", "img");
    dot.setAttribute("aria-label", seat.connected ? W.online : W.offline);
    dot.title = seat.connected ? W.online : W.offline;
    head.appendChild(el("span", "ot-name", seat.taken ? seatName(s) : W.empty_seat));
    if (s === me) head.appendChild(el("span", "ot-badge you", W.you));
    if (seat.bot) head.appendChild(el("span", "ot-badge bot", BOT_NAMES[seat.bot] ? W[BOT_NAMES[seat.bot]] : W.bot));
    if (seat.auto && !seat.bot) head.appendChild(el("span", "ot-badge auto", W.auto));
    if (hand && hand.dealer === s) head.appendChild(el("span", "ot-badge dealer", W.dealer));
    var info = box.appendChild(el("div", "ot-seat-info"));
    if (hand && !hand.result && hand.counts) info.appendChild(el("span", "", fmt(W.cards_n, { n: hand.counts[s] })));
    if (hand && hand.points && hand.points[s]) info.appendChild(el("span", "ot-took", fmt(W.took, { n: hand.points[s] })));
    if ((!hand || hand.result) && room.status !== "finished" && seat.taken && seat.ready) {
      info.appendChild(el("span", "ot-ready", "✓ " + W.is_ready));
    }
    if (toAct === s && state.clock && state.clock.seat === s) {
      var c = info.appendChild(el("span", "ot-clock", "⏱ " + fmt(W.seconds, { s: remaining(state.clock) })));
      c.dataset.clock = "1";
    }
    if (play) {
      var p = box.appendChild(el("div", "ot-play"));
      p.appendChild(chips(play));
      if (trick && trick.winning === s) { box.classList.add("winning"); p.appendChild(el("span", "ot-winning", W.winning)); }
    }
    if (state.you.host && room.status === "waiting") {
      var ctl = box.appendChild(el("div", "ot-host"));
      if (!seat.taken) {
        ctl.appendChild(button("small", W.give_easy, "bot-e-" + s, function () { act("bot", { seat: s, bot: "easy" }); }));
        ctl.appendChild(button("small", W.give_heuristic, "bot-h-" + s, function () { act("bot", { seat: s, bot: "normal" }); }));
        ctl.appendChild(button("small", W.give_strong, "bot-s-" + s, function () { act("bot", { seat: s, bot: "strong" }); }));
        ctl.appendChild(button("small", W.give_random, "bot-r-" + s, function () { act("bot", { seat: s, bot: "random" }); }));
      } else if (seat.bot) {
        ctl.appendChild(button("small", W.take_back, "bot-x-" + s, function () { act("bot", { seat: s, bot: null }); }));
      }
    }
    return box;
  }

  function actionsOf(type) {
    var list = state.you.actions || [];
    for (var i = 0; i < list.length; i++) if (list[i].type === type) return list[i];
    return null;
  }
  function selectedCards() {
    var cards = (state.hand && state.hand.cards) || [];
    return selected.slice().sort(function (a, b) { return a - b; }).map(function (i) { return cards[i]; });
  }
  function renderActions() {
    var box = els.actions;
    box.innerHTML = "";
    var sel = selectedCards();
    var a;
    if ((a = actionsOf("ready"))) {
      box.appendChild(button("primary big ot-main", W.ready, "ready", function () { act("ready"); }));
    }
    if ((a = actionsOf("rematch"))) {
      box.appendChild(button("primary big ot-main", W.rematch, "rematch", function () { act("rematch"); }));
    }
    if ((a = actionsOf("play"))) {
      var label = sel.length ? W.play + " " + cardsText(sel) : W.pick_cards;
      var b = box.appendChild(button("primary big ot-main", label, "main", function () {
        act("play", { cards: selectedCards().join(" ") });
      }));
      b.disabled = !sel.length;
    }
    if ((a = actionsOf("bury"))) {
      var count = a.count || 0;
      var buryLabel = sel.length === count ? W.bury + " " + cardsText(sel) + " (" + count + ")"
        : W.bury + " (" + sel.length + "/" + count + ")";
      var bb = box.appendChild(button("primary big ot-main", buryLabel, "main", function () {
        act("bury", { cards: selectedCards().join(" ") });
      }));
      bb.disabled = sel.length !== count;
      bb.dataset.count = count;
    }
    var row = el("div", "ot-choices");
    [["declare", W.declare], ["insure", W.insure], ["overturn", W.overturn]].forEach(function (pair) {
      var act_ = actionsOf(pair[0]);
      if (!act_) return;
      (act_.options || []).forEach(function (opt, i) {
        var label_ = pair[1] + " " + cardsText(opt);
        row.appendChild(button("ot-option", label_, pair[0] + "-" + i, function () { act(pair[0], { cards: opt.join(" ") }); }));
      });
    });
    if ((a = actionsOf("name_trump"))) {
      a.options.forEach(function (suit) {
        var text = suit === "NT" ? W.no_trump : fmt(W.trump_is, { suit: cfg.suits[suit] || suit });
        var b2 = row.appendChild(button("ot-option" + (suit === "H" || suit === "D" ? " red" : ""), text, "trump-" + suit,
          function () { act("name_trump", { suit: suit }); }));
        b2.dataset.suit = suit;
      });
    }
    if ((a = actionsOf("bid")) && a.options.length) {
      var wrap = row.appendChild(el("span", "ot-bid"));
      var select = wrap.appendChild(el("select", "ot-bid-amount"));
      select.dataset.key = "bid-amount";
      select.setAttribute("aria-label", fmt(W.bid, { n: "" }).trim());
      a.options.forEach(function (amount) { var o = el("option", "", String(amount)); o.value = amount; select.appendChild(o); });
      wrap.appendChild(button("ot-option", fmt(W.bid, { n: "" }).trim(), "bid", function () {
        act("bid", { amount: parseInt(select.value, 10) });
      }));
    }
    if (actionsOf("pass")) row.appendChild(button("ot-option", W.pass, "pass", function () { act("pass"); }));
    if (row.childNodes.length) box.appendChild(row);
    if (sel.length) {
      box.appendChild(button("small ot-clear", W.clear, "clear", function () { selected = []; renderActions(); renderHand(); }));
    }
    box.hidden = !box.childNodes.length;
  }

  function renderHand() {
    var box = els.hand, hand = state.hand;
    box.innerHTML = "";
    var cards = (hand && hand.cards) || [];
    box.hidden = !cards.length;
    var lastGroup = null;
    var canPick = !!(actionsOf("play") || actionsOf("bury"));
    cards.forEach(function (name, i) {
      var c = card(name);
      var group = isTrump(c, hand) ? "T" : c.suit;
      var b = el("button", "ot-card" + (c.red ? " red" : "") + (c.joker ? " joker" : ""));
      b.type = "button";
      b.dataset.key = "card-" + i;
      b.dataset.card = name;
      if (lastGroup !== null && group !== lastGroup) b.classList.add("gap");
      lastGroup = group;
      b.appendChild(el("span", "r", c.rank));
      if (c.symbol) b.appendChild(el("span", "s", c.symbol));
      b.setAttribute("aria-label", c.label);
      var on = selected.indexOf(i) >= 0;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (!canPick) b.classList.add("idle");
      b.addEventListener("click", function () {
        var at = selected.indexOf(i);
        if (at >= 0) selected.splice(at, 1); else selected.push(i);
        b.setAttribute("aria-pressed", at >= 0 ? "false" : "true");
        renderActions();
      });
      box.appendChild(b);
    });
    if (hand && hand.kitty && hand.kitty.length && !hand.result) {
      var k = el("p", "ot-kitty");
      k.appendChild(el("span", "muted", W.kitty + ": "));
      k.appendChild(chips(hand.kitty));
      box.appendChild(k);
    }
  }

  function renderExtra() {
    var box = els.extra, hand = state.hand, room = state.room;
    box.innerHTML = "";
    if (hand && hand.result) box.appendChild(resultBox(hand));
    if (hand && hand.last_trick && !hand.result) {
      var t = box.appendChild(button("small ot-last-toggle", showLast ? W.hide_last : W.last_trick, "last", function () {
        showLast = !showLast; renderExtra();
      }));
      t.setAttribute("aria-expanded", showLast ? "true" : "false");
      if (showLast) box.appendChild(trickList(hand.last_trick));
    }
    if (hand && !hand.result && ((hand.declarations && hand.declarations.length) || (hand.bids && hand.bids.length))) {
      var calls = box.appendChild(el("p", "ot-calls"));
      (hand.declarations || []).forEach(function (d) {
        var line = calls.appendChild(el("span", "ot-call"));
        line.appendChild(el("span", "", seatShort(d.seat) + " · " + W.declared + " "));
        line.appendChild(chips(d.cards));
      });
      (hand.bids || []).forEach(function (b) {
        var said = b.amount === null || b.amount === undefined ? W.pass : fmt(W.bid, { n: b.amount });  // null: a pass
        calls.appendChild(el("span", "ot-call", seatShort(b.seat) + " · " + said));
      });
    }
    if (hand && hand.shown_kitty && !hand.result) {
      var sk = box.appendChild(el("p", "ot-kitty"));
      sk.appendChild(el("span", "muted", W.kitty + ": "));
      sk.appendChild(chips(hand.shown_kitty));
    }
    box.appendChild(board(room));
  }

  function trickList(trick) {
    var list = el("ul", "ot-last");
    trick.plays.forEach(function (p) {
      var li = list.appendChild(el("li", p.seat === trick.winner ? "won" : ""));
      li.appendChild(el("span", "ot-name", seatShort(p.seat) + " "));
      li.appendChild(chips(p.cards));
    });
    if (trick.points) list.appendChild(el("li", "muted", seatShort(trick.winner) + " · " + fmt(W.took, { n: trick.points })));
    return list;
  }

  function resultBox(hand) {
    var res = hand.result, box = el("section", "ot-result panel");
    box.appendChild(el("h2", "", W.result));
    var expl = res.explanation;
    if (expl && !Array.isArray(expl) && typeof expl === "object") expl = expl[LANG] || expl.en;
    if (typeof expl === "string") expl = [expl];
    if (expl && expl.length) {
      var ul = box.appendChild(el("ul", "ot-explanation"));
      expl.forEach(function (line) { ul.appendChild(el("li", "", line)); });
    }
    var replay = (state.room.hands || []).filter(function (h) { return h.number === hand.number; })[0];
    if (replay) {
      var a = box.appendChild(el("a", "button ot-replay", fmt(W.replay, { n: hand.number })));
      a.href = replay.replay;
    }
    if (res.hands) {
      var det = box.appendChild(el("details", "ot-all-hands"));
      det.appendChild(el("summary", "", W.all_hands));
      res.hands.forEach(function (cards, s) {
        var p = det.appendChild(el("p", ""));
        p.appendChild(el("span", "ot-name", seatShort(s) + ": "));
        p.appendChild(chips(cards));
      });
      if (res.kitty && res.kitty.length) {  // Yongzhou 300 has no kitty
        var k = det.appendChild(el("p", ""));
        k.appendChild(el("span", "ot-name", W.kitty + ": "));
        k.appendChild(chips(res.kitty));
      }
    }
    return box;
  }

  function board(room) {
    var m = room.match || {}, box = el("section", "ot-board");
    var table = el("table", "table compact");
    var body = table.appendChild(el("tbody"));
    var row = function (label, value) {
      var tr = body.appendChild(el("tr"));
      tr.appendChild(el("th", "", label));
      tr.appendChild(el("td", "num", String(value)));
    };
    if (m.levels) {
      box.appendChild(el("h2", "", W.levels));
      m.levels.forEach(function (lv, side) {
        var names = room.seats.filter(function (s) { return s.seat % 2 === side; }).map(function (s) { return seatShort(s.seat); });
        row(fmt(W.side_n, { n: side + 1 }) + " · " + names.join(" / "), lv);
      });
    } else if (m.totals) {
      box.appendChild(el("h2", "", W.totals));
      m.totals.forEach(function (t, s) { row(seatShort(s), t); });
    }
    if (body.childNodes.length) box.appendChild(table);
    var bits = [];
    if (m.hands_played) bits.push(fmt(W.hands_played, { n: m.hands_played + (m.hands_limit ? " / " + m.hands_limit : "") }));
    if (m.winner !== null && m.winner !== undefined) bits.push(fmt(W.winner, { side: fmt(W.side_n, { n: m.winner + 1 }) }));
    if (bits.length) box.appendChild(el("p", "muted", bits.join(" · ")));
    box.hidden = !box.childNodes.length;
    return box;
  }

  // The countdown: redrawn from the clock's remaining_ms and the time since its state arrived.
  setInterval(function () {
    if (!state || !state.clock) return;
    var left = fmt(W.seconds, { s: remaining(state.clock) });
    root.querySelectorAll("[data-clock]").forEach(function (c) {
      c.textContent = (c.parentNode.classList.contains("ot-turn") ? " " : "") + "⏱ " + left;
    });
  }, 250);

  connect();
})();
