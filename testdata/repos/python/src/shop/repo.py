"""Where orders are kept."""

import json
import os
import os.path
from abc import ABC, abstractmethod
from typing import Protocol

from .models import Order


class Clock(Protocol):
    def now(self) -> float: ...


class Repository(ABC):
    """Keeps orders."""

    @abstractmethod
    def save(self, order: Order) -> None:
        """Store an order."""

    @abstractmethod
    def load(self, order_id: int) -> Order: ...


class MemoryRepository(Repository):
    def __init__(self):
        self._orders: dict[int, Order] = {}

    def save(self, order: Order) -> None:
        self._orders[order.id] = order

    def load(self, order_id: int) -> Order:
        if order_id not in self._orders:
            raise KeyError(order_id)
        return self._orders[order_id]


class JsonRepository(Repository):
    """Keeps each order in a JSON file under a directory."""

    def __init__(self, root: str):
        self.root = root or os.environ.get("SHOP_DATA", "data")
        os.makedirs(self.root, exist_ok=True)

    def _path(self, order_id: int) -> str:
        return os.path.join(self.root, f"{order_id}.json")

    def save(self, order: Order) -> None:
        with open(self._path(order.id), "w") as f:
            json.dump({"customer": order.customer, "lines": [vars(l) for l in order.lines]}, f)

    def load(self, order_id: int) -> Order:
        with open(self._path(order_id)) as f:
            data = json.load(f)
        return Order.from_dict(data)
