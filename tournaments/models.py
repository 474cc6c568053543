"""Tournament data. Raw facts are stored; everything derived is recomputed from them."""

from django.db import models
from django.db.models.functions import Length
from django.utils.translation import gettext_lazy as _

models.CharField.register_lookup(Length)


class TimeStamped(models.Model):
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        abstract = True


class Player(TimeStamped):
    """A person who plays. Names may be written in any script (王小明, Zoë, Ali)."""

    name = models.CharField(_("name"), max_length=100)
    club = models.CharField(_("club"), max_length=100, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    rating = models.IntegerField(_("rating"), null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=models.Q(name__length__gt=0), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name
