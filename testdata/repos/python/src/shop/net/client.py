"""Talks to the price service."""

import subprocess
import urllib.request

import requests

from ..models import Item
from ..util import format_price as fmt

__all__ = ["PriceClient", "fetch_prices"]

SERVICE_URL = "https://prices.example.com"


class PriceClient:
    def __init__(self, base: str = SERVICE_URL):
        self.base = base
        self.session = requests.Session()

    def price(self, item: Item) -> float:
        resp = self.session.get(f"{self.base}/{item.sku}")
        resp.raise_for_status()
        return float(resp.json()["price"])

    def describe(self, item: Item) -> str:
        return fmt(self.price(item))


def fetch_prices(url: str) -> bytes:
    with urllib.request.urlopen(url) as resp:
        return resp.read()


def git_revision() -> str:
    out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, check=True)
    return out.stdout.decode().strip()
