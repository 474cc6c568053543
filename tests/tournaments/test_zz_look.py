import pytest

from tests.tournaments.factories import make_tournament, win_match
from tournaments import documents as d
from tournaments.models import Match
from tournaments.services import Actor


@pytest.mark.django_db
def test_look():
    for n in (4, 64, 200):
        t = make_tournament(teams=n, third_place=True)
        a = Actor(t.owner)
        for m in Match.objects.filter(stage__tournament=t, round__number=1).order_by("position")[:6]:
            win_match(m, m.position % 2, a)
        pdf, pages = d.pdf_bytes(d.BracketDocument(tournament=t, stage=t.stages.first())); open(f"/tmp/look-br{n}.pdf", "wb").write(pdf); print(n, pages)
