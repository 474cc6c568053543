"""Staff pages: ``/tournaments/<pk>/staff/`` (organizers: who helps, invitation links to copy, invite,
withdraw a link) and ``/invite/<token>/`` (the invited person, no login needed: choose a user name and a
password, or accept with the account they are signed in with)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments.errors import NotAllowed, ServiceError
from tournaments.forms import BigRadio, add_service_errors
from tournaments.models import Invitation, Tournament
from tournaments.permissions import is_organizer
from tournaments.services import staff
from tournaments.services.common import Actor

# A new account signs in at once (its password was just set); the site has two backends, so name one.
LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


class InviteForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Invitation.Role.choices,
                             initial=Invitation.Role.SCORER, widget=BigRadio)


class AcceptForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150,
                               widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}))
    password = forms.CharField(label=gettext_lazy("Password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label=gettext_lazy("Password again"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))


def _organizer_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("owner"), pk=pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied(_("Only an organizer of this tournament may do this."))
    return tournament


def invitation_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("staff-invite-accept", args=[token]))


@require_http_methods(["GET", "HEAD", "POST"])
def staff_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _organizer_tournament(request, pk)
    actor = Actor(request.user, "login")
    form = InviteForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "invite":
                form = InviteForm(request.POST)
                if form.is_valid():
                    invitation, _token = staff.invitation_create(tournament=tournament, actor=actor,
                                                                 role=form.cleaned_data["role"])
                    messages.success(request, _("Invitation link for a %(role)s made: copy it and send it. It "
                                                "works once, for %(days)d days.")
                                     % {"role": invitation.get_role_display(), "days": staff.INVITATION_DAYS})
                    return HttpResponseRedirect(f"{request.path}#invitation-{invitation.pk}")
            elif action == "revoke":
                staff.invitation_revoke(tournament=tournament, actor=actor,
                                        invitation_id=_int(request.POST.get("invitation")))
                messages.success(request, _("The invitation link was withdrawn: it no longer works."))
                return HttpResponseRedirect(f"{request.path}#invitations")
            else:
                messages.error(request, _("Unknown action."))
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from exc
        except ServiceError as exc:
            if action == "invite":
                add_service_errors(form, exc.field_errors)
            else:
                for problems in exc.field_errors.values():
                    for problem in problems:
                        messages.error(request, problem)
    now_rows = []
    for invitation in tournament.invitations.select_related("created_by", "accepted_by"):
        state = staff.invitation_state(invitation)
        now_rows.append({"invitation": invitation, "state": state,
                         "url": invitation_url(request, staff.invitation_token(invitation))
                         if state == staff.PENDING else ""})
    return render(request, "tournaments/staff.html", {
        "tournament": tournament, "is_organizer": True, "is_scorer": True, "form": form,
        "organizers": list(tournament.organizers.order_by("username")),
        "scorers": list(tournament.scorers.order_by("username")),
        "pending": [row for row in now_rows if row["state"] == staff.PENDING],
        "past": [row for row in now_rows if row["state"] != staff.PENDING],
        "days": staff.INVITATION_DAYS,
    })


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


@require_http_methods(["GET", "HEAD", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    invitation = staff.invitation_find(token)
    state = staff.invitation_state(invitation) if invitation is not None else "unknown"
    if state != staff.PENDING:
        return render(request, "tournaments/staff_invite_closed.html", {
            "state": state, "message": staff.unusable_message(state),
            "tournament": invitation.tournament if invitation is not None else None,
        }, status=404 if invitation is None else 410)
    assert invitation is not None
    signed_in = request.user.is_authenticated
    form = AcceptForm()
    if request.method == "POST":
        form = AcceptForm(request.POST)
        try:
            if signed_in:
                done = staff.invitation_accept(token=token, user=request.user)
            else:
                data = {key: request.POST.get(key, "") for key in ("username", "password", "password2")}
                done = staff.invitation_accept(token=token, **data)
                login(request, done.user, backend=LOGIN_BACKEND)
        except staff.InvitationUnusable as exc:
            return render(request, "tournaments/staff_invite_closed.html", {
                "state": exc.state, "message": staff.unusable_message(exc.state), "tournament": invitation.tournament,
            }, status=410)
        except ServiceError as exc:
            form.is_valid()
            add_service_errors(form, exc.field_errors)
        else:
            messages.success(request, _("Welcome, %(name)s: you are now a %(role)s of “%(tournament)s”.") % {
                "name": done.user.get_username(), "role": invitation.get_role_display(),
                "tournament": invitation.tournament.name})
            return HttpResponseRedirect(reverse("tournament-detail", args=[invitation.tournament.pk]))
    already = request.user.is_authenticated and (  # signed_in, narrowing request.user to a User
        is_organizer(request.user, invitation.tournament)
        if invitation.role == Invitation.Role.ORGANIZER
        else invitation.tournament.scorers.filter(pk=request.user.pk).exists())
    return render(request, "tournaments/staff_invite.html", {
        "invitation": invitation, "tournament": invitation.tournament, "form": form, "signed_in": signed_in,
        "already": already, "login_url": f"{reverse('login')}?next={request.path}",
    })
