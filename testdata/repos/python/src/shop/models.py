"""Items and orders."""

from dataclasses import dataclass, field
from typing import Optional

from .util import format_price

TAX_RATE: float = 0.2  # applied to every order


class OutOfStock(Exception):
    """Raised when an item is not available in the quantity asked."""

    def __init__(self, sku: str, wanted: int):
        super().__init__(f"{sku}: {wanted} not in stock")
        self.sku = sku
        self.wanted = wanted


@dataclass(frozen=True)
class Item:
    """An item for sale."""

    sku: str
    price: float
    qty: int = 1
    tags: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return self.price * self.qty

    def label(self) -> str:
        return f"{self.sku} ({format_price(self.total)})"


class Order:
    """An order of items."""

    next_id = 1

    def __init__(self, customer: str, note: Optional[str] = None):
        self.customer = customer
        self.note = note
        self.lines: list[Item] = []
        self.id = Order.next_id
        Order.next_id += 1

    def add(self, item: Item) -> "Order":
        """Add an item; returns the order for chaining."""
        assert item.qty > 0, "quantity must be positive"
        self.lines.append(item)
        return self

    def subtotal(self) -> float:
        return sum(line.total for line in self.lines)

    def total(self) -> float:
        return round(self.subtotal() * (1 + TAX_RATE), 2)

    @classmethod
    def from_dict(cls, data: dict) -> "Order":
        order = cls(data["customer"], note=data.get("note"))
        for raw in data.get("lines", []):
            order.add(Item(raw["sku"], raw["price"], raw.get("qty", 1)))
        return order

    @staticmethod
    def describe(order: "Order") -> str:
        return ", ".join(line.label() for line in order.lines)

    def __repr__(self):
        return f"Order({self.id}, {self.customer!r})"
