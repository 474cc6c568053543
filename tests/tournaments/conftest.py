import pytest

from tests.tournaments.factories import UserFactory


@pytest.fixture
def organizer(db):
    return UserFactory(username="organizer")


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")
