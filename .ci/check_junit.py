"""Fail CI when no test ran, when a browser test was skipped (--require-browser), or when no worker test ran."""

import sys
import xml.etree.ElementTree as ET

path, flags = sys.argv[1], set(sys.argv[2:])
cases = list(ET.parse(path).getroot().iter("testcase"))
ran = [c for c in cases if c.find("skipped") is None]
browser = [c for c in cases if c.get("classname", "").startswith("tests.browser")]
skipped_browser = [c for c in browser if c.find("skipped") is not None]
worker_ran = [c for c in ran if c.find("properties/property[@name='real_worker']") is not None]
print(f"{path}: {len(cases)} tests, {len(ran)} ran, {len(browser)} browser ({len(skipped_browser)} skipped)")
problems = []
if not ran:
    problems.append("no test ran")
if "--require-browser" in flags:
    if not browser:
        problems.append("no browser test ran")
    for case in skipped_browser:
        problems.append(f"browser test skipped: {case.get('classname')}.{case.get('name')}")
if "--require-worker" in flags and not worker_ran:
    problems.append("no test ran against the real Celery worker")
for problem in problems:
    print("CI FAILURE:", problem)
sys.exit(1 if problems else 0)
