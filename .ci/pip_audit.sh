#!/usr/bin/env bash
# The pinned requirements against the Python Packaging Advisory data (pip-audit, PyPI's vulnerability service): fails
# on any known vulnerability. pip-audit lives in its own venv (it is a CI tool, not the app's). Where the service does
# not answer for the pinned versions, pip-audit skips every package and still prints "No known vulnerabilities": that
# is reported loudly as "checked nothing" (not a pass, and not a failure of the code), from its JSON output.
set -euo pipefail
cd "$(dirname "$0")/.."
PA_VENV=var/pa-venv
[ -x "$PA_VENV/bin/pip-audit" ] || { python3.11 -m venv "$PA_VENV" && "$PA_VENV/bin/pip" install --quiet pip-audit==2.10.1; }
set +e
"$PA_VENV/bin/pip-audit" -s pypi --no-deps --disable-pip -r requirements.txt -f json -o var/pip-audit.json \
  --progress-spinner off 2> var/pip-audit.err
set -e
python3.11 - <<'PY'
import json, sys
try:
    report = json.load(open("var/pip-audit.json"))
except (OSError, ValueError):
    print(open("var/pip-audit.err").read())
    print("pip-audit: no report (the vulnerability service did not answer): CHECKED NOTHING")
    sys.exit(0)
deps = report.get("dependencies", [])
vulnerable = [(d["name"], d["version"], v["id"]) for d in deps for v in d.get("vulns", [])]
checked = [d for d in deps if "skip_reason" not in d]
for name, version, vid in vulnerable:
    print(f"VULNERABLE: {name} {version}: {vid}")
print(f"pip-audit: {len(checked)} of {len(deps)} pinned packages checked, {len(vulnerable)} known vulnerabilities")
if not checked:
    print("pip-audit: CHECKED NOTHING (PyPI's per-version data did not answer here); not a pass")
sys.exit(1 if vulnerable else 0)
PY
