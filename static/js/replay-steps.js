// Step through a replayed hand trick by trick: buttons and the arrow keys (← →), Home/End; "All" shows every trick.
(function () {
  var list = document.querySelector(".replay-tricks");
  if (!list) return;
  var tricks = Array.prototype.slice.call(list.querySelectorAll(".replay-trick"));
  var bar = document.getElementById("replay-stepper");
  if (!tricks.length || !bar) return;
  bar.hidden = false;
  var label = bar.querySelector(".step-label");
  var current = 0, all = false;
  function show() {
    tricks.forEach(function (t, i) { t.hidden = !all && i !== current; t.classList.toggle("current", !all && i === current); });
    label.textContent = all ? bar.dataset.all : bar.dataset.trick + " " + (current + 1) + " / " + tricks.length;
    bar.querySelector("[data-step=prev]").disabled = !all && current === 0;
    bar.querySelector("[data-step=next]").disabled = !all && current === tricks.length - 1;
  }
  function go(step) {
    if (step === "all") { all = !all; show(); return; }
    all = false;
    if (step === "prev") current = Math.max(0, current - 1);
    else if (step === "next") current = Math.min(tricks.length - 1, current + 1);
    else if (step === "first") current = 0;
    else if (step === "last") current = tricks.length - 1;
    show();
  }
  bar.addEventListener("click", function (e) { var b = e.target.closest("button"); if (b) go(b.dataset.step); });
  document.addEventListener("keydown", function (e) {
    if (e.target.closest("input, textarea, select")) return;
    var step = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (step) { e.preventDefault(); go(step); }
  });
  show();
})();
