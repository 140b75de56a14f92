"""Races between transactions: n threads released together, each on its own connection. They need PostgreSQL
(SQLite serializes every write, so it cannot show a race); the CI's production pass runs them there."""

import threading

import pytest
from django.db import connection

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a race between transactions needs PostgreSQL: SQLite serializes every write (the CI's production pass)",
)


def at_once(n, work):
    """Run `work()` in n threads released together; returns (results, errors). Each thread closes its connection."""
    barrier = threading.Barrier(n)
    results, errors, lock = [], [], threading.Lock()

    def run():
        try:
            barrier.wait(timeout=10)
            outcome = work()
            with lock:
                results.append(outcome)
        except Exception as error:  # noqa: BLE001 - every refusal is collected and checked by the test
            with lock:
                errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results, errors
