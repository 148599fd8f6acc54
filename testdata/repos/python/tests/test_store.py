import unittest

import pytest

from shop import Item, Order, OutOfStock, Store
from shop.repo import MemoryRepository


def test_checkout(store):
    store.restock("apple", 5)
    order = Order("bob").add(Item("apple", 1.0, 2))
    assert store.checkout(order) == order.total()


def test_out_of_stock(store):
    with pytest.raises(OutOfStock):
        store.reserve(Item("pear", 1.0, 1))


class TestStore(unittest.TestCase):
    def setUp(self):
        self.repo = MemoryRepository()
        self.store = Store(self.repo)

    def test_restock(self):
        self.store.restock("apple", 1)
        self.assertEqual(self.store.stock["apple"], 1)

    def test_saved(self):
        order = Order("cy")
        self.store.checkout(order)
        self.assertIs(self.repo.load(order.id), order)
