"""Settings split by mode: ``base`` (shared), ``local``, ``production`` and ``test``.

Every value that comes from the environment is read in :mod:`config.settings.base`.
"""
