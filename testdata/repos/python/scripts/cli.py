#!/usr/bin/env python3
"""Command line entry point."""

import argparse
import os
import sys

import shop
from shop.net import fetch_prices, PriceClient
from shop.models import Item


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="shop tool")
    parser.add_argument("--data", default=os.getenv("SHOP_DATA", ""))
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    store = shop.open_store(args.data)
    store.restock("apple", 10)
    order = shop.Order("ann").add(Item("apple", 0.5, 3))
    total = store.checkout(order)
    client = PriceClient()
    print(client.describe(Item("apple", 0.5)))
    print(fetch_prices("https://example.com/prices"))
    if total <= 0:
        sys.exit(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
