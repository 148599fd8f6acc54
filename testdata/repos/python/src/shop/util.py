"""Helpers shared by the shop modules."""

import functools
import time

CURRENCY = "EUR"
_precision = 2
__secret = "do not export"

try:
    from ._speedups import fast_round
except ImportError:
    def fast_round(value: float, digits: int) -> float:
        return round(value, digits)


def format_price(amount: float) -> str:
    """Format an amount with the shop's currency."""
    return f"{fast_round(amount, _precision):.2f} {CURRENCY}"


def timed(fn):
    """Log how long fn takes."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.monotonic()
        try:
            return fn(*args, **kwargs)
        finally:
            print(f"{fn.__name__}: {time.monotonic() - start:.3f}s")
    return wrapper


class AuditLog:
    """An append-only list of events."""

    def __init__(self):
        self._entries = []

    def record(self, event: str, subject) -> None:
        self._entries.append(f"{event} {subject}")

    def entries(self) -> list[str]:
        return list(self._entries)


def first[T](xs: list[T]) -> T | None:
    return xs[0] if xs else None


async def ping(host: str) -> bool:
    import asyncio
    reader, writer = await asyncio.open_connection(host, 80)
    writer.close()
    return True
