// Copy buttons of long links (templates/tournaments/_link_tools.html): shown only with JavaScript;
// without it the link itself stays visible, to long-press, and its QR code still opens.
(function () {
  document.querySelectorAll(".copy-link").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = button.dataset.url;
      var label = button.dataset.label || button.textContent;
      button.dataset.label = label;
      var done = function () {
        button.textContent = button.dataset.copied;
        setTimeout(function () { button.textContent = label; }, 2000);
      };
      var fallback = function () {
        var box = document.createElement("textarea");
        box.value = url;
        box.setAttribute("readonly", "");
        box.style.position = "fixed";
        box.style.opacity = "0";
        document.body.appendChild(box);
        box.select();
        document.execCommand("copy");
        box.remove();
        done();
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(done, fallback);
      } else {
        fallback();
      }
    });
  });
})();
