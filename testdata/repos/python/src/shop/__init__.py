"""A small shop: items, orders, a store and where they are kept."""

from .models import Item, Order, OutOfStock
from .store import Store, AuditedStore
from .repo import JsonRepository, MemoryRepository

__all__ = ["Item", "Order", "OutOfStock", "Store", "AuditedStore", "open_store", "VERSION"]

VERSION = "1.2.0"


def open_store(path: str = "", audited: bool = False) -> Store:
    """Open a store kept in path, or in memory when path is empty."""
    repo = JsonRepository(path) if path else MemoryRepository()
    if audited:
        return AuditedStore(repo)
    return Store(repo)


def _internal_helper():
    return VERSION
