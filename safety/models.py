"""One row per idempotency key: reserved before the write runs, then holding the first answer."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class IdempotencyKey(models.Model):
    """The first answer to a write sent with an ``Idempotency-Key`` (or a form's ``idempotency_key``).

    ``status_code`` is empty while the first request is still running ("in progress").
    """

    key = models.CharField(_("key"), max_length=128)
    # Whose key it is: ``user:<id>``, ``table:<sha256 of the table token>`` or ``anon:<address>``.
    scope = models.CharField(_("scope"), max_length=100)
    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=500)
    request_hash = models.CharField(_("request body hash"), max_length=64)
    status_code = models.PositiveSmallIntegerField(_("status code"), null=True, blank=True)
    response_body = models.BinaryField(_("response body"), default=b"")
    content_type = models.CharField(_("content type"), max_length=200, blank=True, default="")
    location = models.CharField(_("redirect location"), max_length=500, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="safety_idempotency_scope_key")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} {self.method} {self.path} → {self.status_code or 'in progress'}"

    @property
    def in_progress(self) -> bool:
        return self.status_code is None
