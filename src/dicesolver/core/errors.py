"""The errors a user can cause. Front ends turn them into one clear line (exit code 2 in the CLI)."""


class DicesolverError(Exception):
    """Base class: something the user asked for cannot be done as asked."""


class InputError(DicesolverError, ValueError):
    """Bad input: a wrong die, an impossible scorecard, a malformed position or option."""


class GameDefinitionError(DicesolverError, ValueError):
    """An unknown game or variant, or a malformed rules file."""


class TableError(DicesolverError):
    """A solved table that is missing, corrupt, truncated, stale or foreign."""


class CacheWarning(UserWarning):
    """A cache that cannot be written: the work is done all the same, kept elsewhere or not kept at all."""
