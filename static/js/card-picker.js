// Tap-to-enter cards (referee page, trick entry): tapping a card adds it to the target field. The target is
// the field last tapped, or before any tap the page's default (the picker's data-target: on trick entry the
// cards of the seat whose turn it is; elsewhere the first card field), so the first tap on a card counts.
// A page may move the target itself: window.cardPicker.select(field).
(function () {
  var picker = document.getElementById("card-picker");
  if (!picker) return;
  picker.hidden = false;
  var target = null;
  var fields = function () { return Array.prototype.slice.call(document.querySelectorAll("[data-cards]")); };
  var shown = function (field) { return field && !field.hidden && !field.disabled && field.getClientRects().length > 0; };
  function select(field) {
    if (!field) return;
    target = field;
    fields().forEach(function (f) { f.classList.toggle("picking", f === field); });
    picker.querySelector(".picker-target").textContent = field.dataset.label || "";
  }
  function fallback() {
    var named = picker.dataset.target ? document.getElementById(picker.dataset.target) : null;
    if (named) return named;
    return fields().filter(shown)[0] || fields()[0] || null;
  }
  fields().forEach(function (field) {
    field.addEventListener("focus", function () { select(field); });
  });
  picker.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (!shown(target)) select(fallback());  // nothing tapped yet, or the field tapped is hidden now
    if (!target) return;
    event.preventDefault();
    if (button.dataset.action === "undo") {
      target.value = target.value.trim().split(/\s+/).slice(0, -1).join(" ");
    } else if (button.dataset.action === "clear") {
      target.value = "";
    } else {
      target.value = (target.value.trim() + " " + button.dataset.card).trim();
    }
    target.dispatchEvent(new Event("change", { bubbles: true }));
  });
  window.cardPicker = { select: select, target: function () { return target; } };
  select(fallback());
})();
