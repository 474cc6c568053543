"""Staff from the site: invitation links (services and pages). Every path: invite, accept as a new account or
with the signed-in account, the plain answers for unknown/used/withdrawn/expired links, guessed tokens, and a
scorer who tries to invite."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournaments.test_pages import PASSWORD, build_tournament
from tournaments.errors import NotAllowed, ServiceError
from tournaments.models import AuditEntry, Invitation, Tournament
from tournaments.permissions import is_organizer, is_scorer
from tournaments.services import Actor, staff

pytestmark = pytest.mark.django_db
User = get_user_model()
NEW_PASSWORD = "lantern-river-47 mooncake"


@pytest.fixture(autouse=True)
def back_to_english() -> Iterator[None]:
    """A request in Chinese leaves Chinese active in this thread: later tests read English messages."""
    yield
    translation.activate("en")


@pytest.fixture
def owner() -> Any:
    return User.objects.create_user("owner", password=PASSWORD)


@pytest.fixture
def tournament(owner: Any) -> Tournament:
    return build_tournament(owner, teams=4, start=False)


def invite(tournament: Tournament, role: str = "scorer") -> tuple[Invitation, str]:
    return staff.invitation_create(tournament=tournament, role=role, actor=Actor(tournament.owner))


# ----------------------------------------------------------------------------------------- services

def test_an_invitation_stores_only_a_hash_of_its_token_and_expires_in_seven_days(tournament: Tournament) -> None:
    before = timezone.now()
    invitation, token = invite(tournament)
    invitation.refresh_from_db()
    assert len(token) == staff.TOKEN_LENGTH
    stored = [str(value) for value in Invitation.objects.filter(pk=invitation.pk).values_list().get()]
    assert all(token not in value for value in stored)  # no column holds the token
    assert invitation.token_hash == staff.token_hash(token) != token
    assert staff.invitation_token(invitation) == token  # the organizer can copy the link again
    assert timedelta(days=7) <= invitation.expires_at - before < timedelta(days=7, minutes=1)
    assert invitation.created_by == tournament.owner
    entry = AuditEntry.objects.get(action="staff.scorer.invite")
    assert entry.actor == tournament.owner and entry.target == f"invitation:{invitation.pk}"
    assert token not in str(entry.data)


def test_accepting_makes_a_new_account_with_the_role(tournament: Tournament) -> None:
    invitation, token = invite(tournament, "organizer")
    done = staff.invitation_accept(token=token, username="李雷", password=NEW_PASSWORD, password2=NEW_PASSWORD)
    assert done.created and done.user.check_password(NEW_PASSWORD)
    assert is_organizer(done.user, tournament)
    invitation.refresh_from_db()
    assert invitation.accepted_by == done.user and invitation.accepted_at is not None
    entry = AuditEntry.objects.get(action="staff.organizer.accept")
    assert entry.actor == done.user and entry.via == "invite" and entry.data["new_account"] is True


def test_a_signed_in_user_accepts_with_their_account(tournament: Tournament) -> None:
    helper = User.objects.create_user("helper", password=PASSWORD)
    _, token = invite(tournament, "scorer")
    done = staff.invitation_accept(token=token, user=helper)
    assert not done.created and done.user == helper
    assert is_scorer(helper, tournament) and not is_organizer(helper, tournament)
    assert User.objects.count() == 2


@pytest.mark.parametrize(("fields", "bad"), [
    ({"username": "", "password": NEW_PASSWORD, "password2": NEW_PASSWORD}, "username"),
    ({"username": "owner", "password": NEW_PASSWORD, "password2": NEW_PASSWORD}, "username"),  # taken
    ({"username": "OWNER", "password": NEW_PASSWORD, "password2": NEW_PASSWORD}, "username"),  # taken, other case
    ({"username": "bad name!", "password": NEW_PASSWORD, "password2": NEW_PASSWORD}, "username"),
    ({"username": "newbie", "password": "12345678", "password2": "12345678"}, "password"),  # numeric, common
    ({"username": "newbie", "password": "short", "password2": "short"}, "password"),
    ({"username": "newbie", "password": "newbie12", "password2": "newbie12"}, "password"),  # like the name
    ({"username": "newbie", "password": NEW_PASSWORD, "password2": NEW_PASSWORD + "x"}, "password2"),
])
def test_a_bad_user_name_or_password_is_refused_and_the_link_stays_usable(
        tournament: Tournament, fields: dict[str, str], bad: str) -> None:
    invitation, token = invite(tournament)
    with pytest.raises(ServiceError) as caught:
        staff.invitation_accept(token=token, **fields)
    assert bad in caught.value.field_errors
    assert User.objects.count() == 1
    invitation.refresh_from_db()
    assert staff.invitation_state(invitation) == staff.PENDING


def test_a_link_works_once(tournament: Tournament) -> None:
    _, token = invite(tournament)
    staff.invitation_accept(token=token, username="first", password=NEW_PASSWORD)
    with pytest.raises(staff.InvitationUnusable) as caught:
        staff.invitation_accept(token=token, username="second", password=NEW_PASSWORD)
    assert caught.value.state == staff.ACCEPTED
    assert not User.objects.filter(username="second").exists()


def test_an_expired_link_is_refused(tournament: Tournament) -> None:
    invitation, token = invite(tournament)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(staff.InvitationUnusable) as caught:
        staff.invitation_accept(token=token, username="late", password=NEW_PASSWORD)
    assert caught.value.state == staff.EXPIRED and "expired" in caught.value.field_errors["token"][0]


def test_a_withdrawn_link_is_refused_and_the_withdrawal_is_audited(tournament: Tournament) -> None:
    invitation, token = invite(tournament)
    staff.invitation_revoke(tournament=tournament, invitation_id=invitation.pk, actor=Actor(tournament.owner))
    assert AuditEntry.objects.filter(action="staff.scorer.revoke", target=f"invitation:{invitation.pk}").exists()
    with pytest.raises(staff.InvitationUnusable) as caught:
        staff.invitation_accept(token=token, username="late", password=NEW_PASSWORD)
    assert caught.value.state == staff.REVOKED
    with pytest.raises(ServiceError):  # a second withdrawal says it is withdrawn already
        staff.invitation_revoke(tournament=tournament, invitation_id=invitation.pk, actor=Actor(tournament.owner))


def test_an_invitation_of_another_tournament_cannot_be_withdrawn_here(tournament: Tournament, owner: Any) -> None:
    other = build_tournament(owner, teams=4, name="Other cup", start=False)
    invitation, _ = invite(other)
    with pytest.raises(ServiceError) as caught:
        staff.invitation_revoke(tournament=tournament, invitation_id=invitation.pk, actor=Actor(owner))
    assert "invitation" in caught.value.field_errors


def test_guessed_tokens_find_nothing(tournament: Tournament) -> None:
    _, token = invite(tournament)
    guesses = [secrets.token_hex(32) for _ in range(200)]
    guesses += [token[:-1] + ("0" if token[-1] != "0" else "1"), token.upper(), token[:32], token + "0", "", "%00"]
    for guess in guesses:
        assert staff.invitation_find(guess) is None
        with pytest.raises(staff.InvitationUnusable):
            staff.invitation_accept(token=guess, username="intruder", password=NEW_PASSWORD)
    assert not User.objects.filter(username="intruder").exists()
    assert not AuditEntry.objects.filter(action__endswith=".accept").exists()


def test_a_scorer_cannot_invite_or_withdraw(tournament: Tournament) -> None:
    scorer = User.objects.create_user("scorer", password=PASSWORD)
    tournament.scorers.add(scorer)
    with pytest.raises(NotAllowed):
        staff.invitation_create(tournament=tournament, role="organizer", actor=Actor(scorer))
    invitation, _ = invite(tournament)
    with pytest.raises(NotAllowed):
        staff.invitation_revoke(tournament=tournament, invitation_id=invitation.pk, actor=Actor(scorer))
    assert Invitation.objects.count() == 1


def test_an_unknown_role_is_refused(tournament: Tournament) -> None:
    with pytest.raises(ServiceError) as caught:
        staff.invitation_create(tournament=tournament, role="owner", actor=Actor(tournament.owner))
    assert "role" in caught.value.field_errors


# ------------------------------------------------------------------------------------------- pages

def staff_url(tournament: Tournament) -> str:
    return reverse("tournament-staff", args=[tournament.pk])


def test_the_organizer_invites_from_the_staff_page_and_copies_the_link(client: Any, tournament: Tournament) -> None:
    client.force_login(tournament.owner)
    response = client.post(staff_url(tournament), {"action": "invite", "role": "organizer"})
    assert response.status_code == 302
    invitation = Invitation.objects.get()
    assert invitation.role == "organizer"
    page = client.get(staff_url(tournament)).content.decode()
    link = reverse("staff-invite-accept", args=[staff.invitation_token(invitation)])
    assert f'href="http://testserver{link}"' in page and "Copy the link" in page


def test_the_staff_page_lists_staff_and_past_invitations(client: Any, tournament: Tournament) -> None:
    scorer = User.objects.create_user("王芳", password=PASSWORD)
    tournament.scorers.add(scorer)
    invitation, token = invite(tournament)
    staff.invitation_accept(token=token, username="accepted-one", password=NEW_PASSWORD)
    client.force_login(tournament.owner)
    page = client.get(staff_url(tournament)).content.decode()
    assert "王芳" in page and "accepted by accepted-one" in page and "No pending invitations." in page
    assert staff.invitation_token(invitation) not in page  # a used link is not shown again


def test_the_organizer_withdraws_a_link_from_the_page(client: Any, tournament: Tournament) -> None:
    invitation, token = invite(tournament)
    client.force_login(tournament.owner)
    response = client.post(staff_url(tournament), {"action": "revoke", "invitation": str(invitation.pk)})
    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    client.logout()
    response = client.get(reverse("staff-invite-accept", args=[token]))
    assert response.status_code == 410 and "withdrawn" in response.content.decode()


@pytest.mark.parametrize("who", ["scorer", "outsider", "anonymous"])
def test_only_organizers_open_the_staff_page_or_post_to_it(client: Any, tournament: Tournament, who: str) -> None:
    if who != "anonymous":
        user = User.objects.create_user(who, password=PASSWORD)
        if who == "scorer":
            tournament.scorers.add(user)
        client.force_login(user)
    if who == "anonymous":  # sent to log in, as from the manage page (issue 28)
        for response in (client.get(staff_url(tournament)),
                         client.post(staff_url(tournament), {"action": "invite", "role": "organizer"})):
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
            assert "next=" in response["Location"]
    else:  # the site's 403 page, saying why
        page = client.get(staff_url(tournament))
        assert page.status_code == 403 and "Only an organizer of this tournament may do this." in page.content.decode()
        assert client.post(staff_url(tournament), {"action": "invite", "role": "organizer"}).status_code == 403
    assert not Invitation.objects.exists()


def test_an_invited_person_picks_a_name_and_password_and_lands_on_the_tournament(
        client: Any, tournament: Tournament) -> None:
    _, token = invite(tournament)
    url = reverse("staff-invite-accept", args=[token])
    page = client.get(url).content.decode()
    assert "scorer" in page and "Log in, then accept" in page and tournament.name in page
    response = client.post(url, {"username": "韩梅梅", "password": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("tournament-detail", args=[tournament.pk])
    user = User.objects.get(username="韩梅梅")
    assert is_scorer(user, tournament)
    assert int(client.session["_auth_user_id"]) == user.pk  # signed in


def test_the_accept_page_shows_why_a_password_is_refused(client: Any, tournament: Tournament) -> None:
    _, token = invite(tournament)
    url = reverse("staff-invite-accept", args=[token])
    response = client.post(url, {"username": "newbie", "password": "short", "password2": "short"})
    assert response.status_code == 200
    assert "This password is too short" in response.content.decode()
    assert not User.objects.filter(username="newbie").exists()


def test_a_signed_in_user_accepts_with_one_button(client: Any, tournament: Tournament) -> None:
    helper = User.objects.create_user("helper", password=PASSWORD)
    _, token = invite(tournament, "organizer")
    client.force_login(helper)
    url = reverse("staff-invite-accept", args=[token])
    assert "Accept as helper" in client.get(url).content.decode()
    assert client.post(url, {}).status_code == 302
    assert is_organizer(helper, tournament)


@pytest.mark.parametrize(("state", "status", "words"), [
    ("unknown", 404, "not valid"), ("accepted", 410, "already been used"), ("revoked", 410, "withdrawn"),
    ("expired", 410, "expired"),
])
def test_closed_links_say_so_plainly_in_both_languages(
        client: Any, tournament: Tournament, state: str, status: int, words: str) -> None:
    invitation, token = invite(tournament)
    if state == "unknown":
        token = secrets.token_hex(32)
    elif state == "accepted":
        staff.invitation_accept(token=token, username="first", password=NEW_PASSWORD)
    elif state == "revoked":
        staff.invitation_revoke(tournament=tournament, invitation_id=invitation.pk, actor=Actor(tournament.owner))
    else:
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(days=1))
    url = reverse("staff-invite-accept", args=[token])
    response = client.get(url)
    assert response.status_code == status and words in response.content.decode()
    assert client.post(url, {"username": "x-late", "password": NEW_PASSWORD, "password2": NEW_PASSWORD}
                       ).status_code == status
    assert not User.objects.filter(username="x-late").exists()
    client.cookies["django_language"] = "zh-hans"
    chinese = client.get(url).content.decode()
    alert = re.search(r'id="invite-state"[^>]*>([^<]+)<', chinese).group(1)
    assert re.search(r"[\u4e00-\u9fff]{4}", alert) and words not in alert
