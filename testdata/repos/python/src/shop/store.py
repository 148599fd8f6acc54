"""The store: stock, orders and checkout."""

import logging

from . import util
from .models import Item, Order, OutOfStock
from .repo import Repository

log = logging.getLogger(__name__)


class Store:
    """Sells items from its stock."""

    def __init__(self, repo: Repository):
        self.repo = repo
        self.stock: dict[str, int] = {}
        self.audit = util.AuditLog()

    def restock(self, sku: str, qty: int) -> None:
        if qty <= 0:
            raise ValueError("qty must be positive")
        self.stock[sku] = self.stock.get(sku, 0) + qty

    def reserve(self, item: Item) -> bool:
        have = self.stock.get(item.sku, 0)
        if have < item.qty:
            raise OutOfStock(item.sku, item.qty)
        self.stock[item.sku] = have - item.qty
        return True

    @util.timed
    def checkout(self, order: Order) -> float:
        """Reserve every line of the order, save it and return its total."""
        if not order.lines:
            return 0.0

        def reserve_all():
            for line in order.lines:
                self.reserve(line)

        reserve_all()
        self.repo.save(order)
        self.audit.record("checkout", order.id)
        log.info("order %s: %s", order.id, util.format_price(order.total()))
        return order.total()


class AuditedStore(Store):
    """A store that also records every restock."""

    def restock(self, sku: str, qty: int) -> None:
        super().restock(sku, qty)
        self.audit.record("restock", sku)

    class Report:
        def __init__(self, store: "AuditedStore"):
            self.store = store

        def lines(self) -> list[str]:
            return self.store.audit.entries()

    def report(self) -> "AuditedStore.Report":
        return AuditedStore.Report(self)
