// +5/-5 steppers next to number inputs on the scoring pages (progressive enhancement: hidden without JS).
(function () {
  document.querySelectorAll("[data-step]").forEach(function (b) { b.hidden = false; });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    var input = document.getElementById(button.dataset.for);
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
    input.value = Math.max(value, input.min === "" ? -1000 : parseInt(input.min, 10));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
