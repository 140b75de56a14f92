"""A pytest plugin that runs the suite as if it were another day: `TEST_TRAVEL_TO=2026-12-07T09:00 pytest -p
tests.weekday_travel ...`. Deadlines skip Sundays and legal holidays (permits.time), so a test that builds its times
from the real clock may pass on a Friday and fail on a Monday; CI runs the rules' tests on such days with it."""

import os
from datetime import datetime
from zoneinfo import ZoneInfo

import time_machine

_traveller = None


def pytest_configure(config):
    global _traveller
    destination = os.environ.get("TEST_TRAVEL_TO")
    if destination:
        moment = datetime.fromisoformat(destination).replace(tzinfo=ZoneInfo("America/Chicago"))
        _traveller = time_machine.travel(moment, tick=True)
        _traveller.start()


def pytest_unconfigure(config):
    if _traveller is not None:
        _traveller.stop()
