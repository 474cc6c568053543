// Tap-to-enter cards on the referee page: tapping a card adds it to the field last focused.
(function () {
  var picker = document.getElementById("card-picker");
  if (!picker) return;
  picker.hidden = false;
  var target = null;
  document.querySelectorAll("[data-cards]").forEach(function (field) {
    field.addEventListener("focus", function () {
      target = field;
      document.querySelectorAll("[data-cards]").forEach(function (f) { f.classList.remove("picking"); });
      field.classList.add("picking");
      picker.querySelector(".picker-target").textContent = field.dataset.label || "";
    });
  });
  picker.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !target) return;
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
})();
