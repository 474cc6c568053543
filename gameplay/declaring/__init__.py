"""How trump and the dealer are chosen: one protocol per kind of :class:`variants.Declaring`, found by its key.

==========================  =======================================================================
``level_card``              tractor: level cards while dealing, pairs overturn (:mod:`.level_card`)
``level_card_and_joker``    chaodi: level card + joker, 翻底, 定主, the 炒底 overturn round
``bidding``                 red five: bid points, the winner names trump (:mod:`.bidding`)
``tens``                    yongzhou: 10s while dealing, offers to overturn (:mod:`.tens`)
==========================  =======================================================================

>>> import variants
>>> PROTOCOLS[variants.YONGZHOU.declaring].__name__
'Tens'
"""

from __future__ import annotations

from gameplay.declaring.base import MAX_REDEALS, Declaration, DeclaringProtocol, Table
from gameplay.declaring.bidding import Bidding
from gameplay.declaring.level_card import LevelCard
from gameplay.declaring.level_card_and_joker import LevelCardAndJoker
from gameplay.declaring.tens import Tens
from variants.behaviour import ByKey

PROTOCOLS: ByKey[type[DeclaringProtocol]] = ByKey(
    {protocol.declaring: protocol for protocol in (LevelCard, LevelCardAndJoker, Bidding, Tens)})
"""The protocol class of each way of declaring, by its :class:`variants.Declaring` (or that one's key):
``PROTOCOLS[variant.declaring]``."""

__all__ = ["MAX_REDEALS", "PROTOCOLS", "Bidding", "Declaration", "DeclaringProtocol", "LevelCard", "LevelCardAndJoker",
           "Table", "Tens"]
