"""How trump and the dealer are chosen: one protocol per :class:`variants.Declaring`, picked by the variant.

==========================  =======================================================================
``level_card``              tractor: level cards while dealing, pairs overturn (:mod:`.level_card`)
``level_card_and_joker``    chaodi: level card + joker, 翻底, 定主, the 炒底 overturn round
``bidding``                 red five: bid points, the winner names trump (:mod:`.bidding`)
``tens``                    yongzhou: 10s while dealing, offers to overturn (:mod:`.tens`)
==========================  =======================================================================

>>> PROTOCOLS[Declaring.TENS].__name__
'Tens'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from gameplay.declaring.base import MAX_REDEALS, Declaration, DeclaringProtocol, Table
from gameplay.declaring.bidding import Bidding
from gameplay.declaring.level_card import LevelCard
from gameplay.declaring.level_card_and_joker import LevelCardAndJoker
from gameplay.declaring.tens import Tens
from variants import Declaring

PROTOCOLS: Mapping[Declaring, type[DeclaringProtocol]] = MappingProxyType({
    Declaring.LEVEL_CARD: LevelCard,
    Declaring.LEVEL_CARD_AND_JOKER: LevelCardAndJoker,
    Declaring.BIDDING: Bidding,
    Declaring.TENS: Tens,
})
"""The protocol class of each way of declaring."""

__all__ = ["MAX_REDEALS", "PROTOCOLS", "Bidding", "Declaration", "DeclaringProtocol", "LevelCard", "LevelCardAndJoker",
           "Table", "Tens"]
