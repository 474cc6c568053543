"""Pages of the tournaments app: thin views over the services (writes) and selectors (reads), one
module per kind of page — :mod:`.public`, :mod:`.manage` (organizers), :mod:`.scoring` (at the
table), :mod:`.printing` (printables and print jobs); :mod:`.common` holds what they share."""
