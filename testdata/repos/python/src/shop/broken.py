"""A module with a syntax error."""

from .models import Item


def fine(item: Item) -> str:
    return item.label()


def broken(item: Item) -> float:
    if item.label() != ""
        return item.total
    return 0.0


class StillHere:
    def method(self) -> str:
        return fine(Item("x", 1.0))
