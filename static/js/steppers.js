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

// The save button waits until every figure that changes the result is chosen (nothing is preset); the
// line above it names what is still missing. Without JavaScript the server refuses an empty one.
(function () {
  function filled(form, name) {
    var field = form.elements[name];
    return !field || String(field.value || "").trim() !== "";
  }
  function update(form) {
    var gate = form.querySelector("[data-save-gate]");
    if (!gate) return;
    var missing = 0;
    gate.querySelectorAll("[data-field]").forEach(function (item) {
      var when = item.dataset.when;
      var needed = !when || (form.elements[when] && form.elements[when].value === item.dataset.whenValue);
      var lacking = needed && !filled(form, item.dataset.field);
      item.hidden = !lacking;
      if (lacking) missing += 1;
    });
    gate.hidden = missing === 0;
    form.querySelectorAll("[data-gated]").forEach(function (button) { button.disabled = missing > 0; });
  }
  document.querySelectorAll("form").forEach(function (form) {
    if (!form.querySelector("[data-save-gate]")) return;
    update(form);
    form.addEventListener("input", function () { update(form); });
    form.addEventListener("change", function () { update(form); });
  });
})();
