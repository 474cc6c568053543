"""``{% load safety_tags %}``: ``{% idempotency_field %}`` inside a form, ``{% idempotency_script %}``
once per page (after htmx) so that htmx and ``fetch`` writes send the key as a header."""

import uuid

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def idempotency_field() -> str:
    """A hidden ``idempotency_key`` field with a fresh UUID each time the form is rendered."""
    return format_html('<input type="hidden" name="idempotency_key" value="{}">', uuid.uuid4())


SCRIPT = """<script>
(function () {
  // Send a form's idempotency_key as the Idempotency-Key header (htmx requests).
  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    var field = form ? form.querySelector("input[name=idempotency_key]") : null;
    if (field && field.value) { event.detail.headers["Idempotency-Key"] = field.value; }
  });
  // For fetch(): window.idempotencyKey(form) gives the form's key, or a new one.
  window.idempotencyKey = function (form) {
    var field = form && form.querySelector("input[name=idempotency_key]");
    if (field && field.value) { return field.value; }
    return (window.crypto && crypto.randomUUID) ? crypto.randomUUID() : String(Date.now()) + Math.random();
  };
})();
</script>"""


@register.simple_tag
def idempotency_script() -> str:
    return mark_safe(SCRIPT)  # a constant of this module
