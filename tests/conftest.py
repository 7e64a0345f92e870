"""Shared test set-up: keep the process's `__main__` module what pytest started with.

Streamlit's AppTest runs the app script as `__main__` and leaves it in `sys.modules`; the batch's worker
processes are spawned, and a spawned process re-imports the parent's `__main__` from its file, which is
then a deleted temporary script. Restoring it after every test keeps test files independent of order."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _keep_main_module() -> Iterator[None]:
    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main
