"""Staff from the site: an organizer invites a scorer or a co-organizer with a link, the invited person
accepts it (a new account with a password, or the account they are signed in with), an organizer revokes
a pending link. Every write leaves an audit entry.

A token is ``HMAC(SECRET_KEY, "invitation:" + nonce)``; the database keeps the nonce and the SHA-256 of the
token, never the token. Looking a token up hashes it first, so a guess costs a hash and an index lookup and
tells nothing about the stored tokens."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from tournaments.errors import ServiceError
from tournaments.models import Invitation, Tournament
from tournaments.services.common import Actor, audit, require_organizer

INVITATION_DAYS = 7
TOKEN_LENGTH = 64  # hex digits of an HMAC-SHA256

PENDING, ACCEPTED, REVOKED, EXPIRED = "pending", "accepted", "revoked", "expired"


def invitation_token(invitation: Invitation) -> str:
    """The secret of the link (derived again from the nonce, so a pending link can be copied again)."""
    return salted_hmac("tournaments.invitation", f"invitation:{invitation.nonce}", algorithm="sha256").hexdigest()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def invitation_state(invitation: Invitation, now: Any = None) -> str:
    if invitation.accepted_at is not None:
        return ACCEPTED
    if invitation.revoked_at is not None:
        return REVOKED
    if invitation.expires_at <= (now or timezone.now()):
        return EXPIRED
    return PENDING


def invitation_find(token: str | None) -> Invitation | None:
    """The invitation of a token, whatever its state; None for a token that is no invitation's."""
    if not token or len(token) != TOKEN_LENGTH:
        return None
    return Invitation.objects.select_related("tournament").filter(token_hash=token_hash(token)).first()


def invitation_create(*, tournament: Tournament, role: str, actor: Actor,
                      days: int = INVITATION_DAYS) -> tuple[Invitation, str]:
    """A new pending invitation and its token (only organizers invite)."""
    require_organizer(actor, tournament)
    if role not in Invitation.Role.values:
        raise ServiceError.one("role", _("The role is organizer or scorer."))
    with transaction.atomic():
        invitation = Invitation(tournament=tournament, role=role, created_by=actor.user_or_none,
                                expires_at=timezone.now() + timedelta(days=days))
        token = invitation_token(invitation)
        invitation.token_hash = token_hash(token)
        invitation.save()
        audit(actor=actor, action=f"staff.{role}.invite", tournament=tournament,
              target=f"invitation:{invitation.pk}", data={"role": role, "expires_at": invitation.expires_at.isoformat()})
    return invitation, token


def invitation_revoke(*, tournament: Tournament, invitation_id: int, actor: Actor) -> Invitation:
    require_organizer(actor, tournament)
    with transaction.atomic():
        invitation = (Invitation.objects.select_for_update()
                      .filter(pk=invitation_id, tournament=tournament).first())
        if invitation is None:
            raise ServiceError.one("invitation", _("This tournament has no such invitation."))
        if invitation_state(invitation) != PENDING:
            raise ServiceError.one("invitation", unusable_message(invitation_state(invitation)))
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        audit(actor=actor, action=f"staff.{invitation.role}.revoke", tournament=tournament,
              target=f"invitation:{invitation.pk}", data={"role": invitation.role})
    return invitation


def unusable_message(state: str) -> str:
    return {
        ACCEPTED: _("This invitation link has already been used. Ask the organizer for a new one."),
        REVOKED: _("This invitation link was withdrawn by the organizer. Ask them for a new one."),
        EXPIRED: _("This invitation link has expired. Ask the organizer for a new one."),
    }.get(state, _("This invitation link is not valid. Check that it was copied whole."))


class InvitationUnusable(ServiceError):
    """The link is unknown, used, revoked or expired: ``state`` says which (``unknown`` for no invitation)."""

    def __init__(self, state: str) -> None:
        self.state = state
        super().__init__({"token": [unusable_message(state)]})


@dataclass(frozen=True)
class Accepted:
    user: Any
    invitation: Invitation
    created: bool  # a new account was made


def invitation_accept(*, token: str, user: Any = None, username: str = "", password: str = "",
                      password2: str | None = None) -> Accepted:
    """Accept an invitation: as ``user`` (signed in) or as a new account ``username`` with ``password``
    (checked by the site's password validators). Adds the user to the role, once."""
    found = invitation_find(token)
    if found is None:
        raise InvitationUnusable("unknown")
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().select_related("tournament").get(pk=found.pk)
        state = invitation_state(invitation)
        if state != PENDING:
            raise InvitationUnusable(state)
        created = False
        if not signed_in:
            user = _new_user(username, password, password2)
            created = True
        tournament = invitation.tournament
        (tournament.organizers if invitation.role == Invitation.Role.ORGANIZER else tournament.scorers).add(user)
        invitation.accepted_by = user
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_by", "accepted_at"])
        audit(actor=Actor(user, "invite"), action=f"staff.{invitation.role}.accept", tournament=tournament,
              target=f"user:{user.pk}", data={"invitation": invitation.pk, "username": user.get_username(),
                                              "new_account": created})
    return Accepted(user=user, invitation=invitation, created=created)


def _new_user(username: str, password: str, password2: str | None) -> Any:
    model = get_user_model()
    username = (username or "").strip()
    errors: dict[str, list[str]] = {}
    candidate = model(username=username)
    if not username:
        errors["username"] = [_("Choose a user name.")]
    else:
        try:
            candidate.clean_fields(exclude=[f.name for f in model._meta.fields if f.name != "username"])
        except ValidationError as exc:
            errors["username"] = [str(m) for m in exc.message_dict.get("username", exc.messages)]
        if "username" not in errors and model.objects.filter(username__iexact=username).exists():
            errors["username"] = [_("This user name is taken. If it is yours, sign in first and open the "
                                    "link again.")]
    if not password:
        errors["password"] = [_("Choose a password.")]
    else:
        try:
            validate_password(password, user=candidate)
        except ValidationError as exc:
            errors["password"] = [str(m) for m in exc.messages]
    if password2 is not None and password and password != password2:
        errors["password2"] = [_("The two passwords differ.")]
    if errors:
        raise ServiceError(errors)
    try:
        with transaction.atomic():
            return model.objects.create_user(username=username, password=password)
    except IntegrityError as exc:  # taken between the check and the insert
        raise ServiceError.one("username", _("This user name is taken. If it is yours, sign in first and open "
                                             "the link again.")) from exc
