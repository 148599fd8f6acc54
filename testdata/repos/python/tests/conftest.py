import pytest

from shop import open_store


@pytest.fixture
def store():
    return open_store()
