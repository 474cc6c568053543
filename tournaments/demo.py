"""Demo data for a new installation. Idempotent: loading twice leaves the same data."""

from django.db import transaction

from tournaments.models import Player

DEMO_PLAYERS: list[tuple[str, str, int]] = [
    ("王小明", "北京桥牌俱乐部", 1820),
    ("李华", "北京桥牌俱乐部", 1790),
    ("张伟", "上海升级社", 1760),
    ("刘洋", "上海升级社", 1740),
    ("Alice Martin", "Paris Tractor Club", 1700),
    ("Bob Chen 陈波", "Paris Tractor Club", 1690),
    ("陈静", "长沙拖拉机协会", 1650),
    ("赵磊", "长沙拖拉机协会", 1640),
]


@transaction.atomic
def load_demo() -> dict[str, int]:
    """Create (or update in place) the demo data; answer counts of what exists afterwards."""
    for name, club, rating in DEMO_PLAYERS:
        Player.objects.update_or_create(
            name=name, defaults={"club": club, "rating": rating, "contact": ""}
        )
    return {"players": Player.objects.filter(name__in=[p[0] for p in DEMO_PLAYERS]).count()}
