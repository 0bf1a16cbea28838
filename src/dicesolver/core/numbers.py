"""Whole numbers typed by people, read the same way in every position and move language.

``str.isdigit`` accepts characters ``int`` refuses (``²``), ``lstrip("-")`` lets ``--3`` through, and
``int`` refuses more than 4,300 digits with a bare ValueError: every number a user types goes through
here instead, as ASCII digits with at most one leading minus sign and a bounded length.
"""

from __future__ import annotations

from .errors import InputError

MAX_DIGITS = 9  # no count, score or face in any game comes near a billion


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (and nothing else)."""
    return bool(text) and text.isascii() and text.isdigit()


def parse_int(text: str, what: str, low: int | None = None, high: int | None = None) -> int:
    """``text`` as a whole number (InputError naming ``what`` otherwise), within ``low``..``high``."""
    t = str(text).strip()
    digits = t[1:] if t.startswith("-") else t
    if not is_digits(digits) or len(digits) > MAX_DIGITS:
        raise InputError(f"{what} must be a whole number, not {_shown(t)}")
    value = int(t)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if low is not None and high is not None else \
            f"at least {low}" if low is not None else f"at most {high}"
        raise InputError(f"{what} must be {bounds}, not {value}")
    return value


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def size_text(n: float) -> str:
    """Bytes as a person reads them: 512 bytes, 4.6 MB, 19.7 GB."""
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n} bytes"


def duration_text(seconds: float) -> str:
    """A duration from seconds to years, rounded as an estimate is: 40 s, 12 min, 1.5 h, 3 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365 * 86400):,.0f} years"
