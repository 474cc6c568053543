// Card codes in a message people read ("1号座位出了 D3", "SA SA") become the cards' faces ("♦3", "♠A ♠A");
// jokers by the page's words when it gives them (window.CARD_WORDS = {BJ: "大王", LJ: "小王"}).
(function () {
  var SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
  var CODE = /(^|[^A-Za-z0-9])([SHCD])(10|[2-9JQKA])(?![A-Za-z0-9])|(^|[^A-Za-z0-9])(BJ|LJ)(?![A-Za-z0-9])/g;
  window.cardWords = function (text) {
    var jokers = window.CARD_WORDS || {};
    return String(text == null ? "" : text).replace(CODE, function (m, pre, suit, rank, jpre, joker) {
      if (joker) return jpre + (jokers[joker] || joker);
      return pre + SUITS[suit] + rank;
    });
  };
})();
