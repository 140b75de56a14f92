"""Which clauses of ../shared/ordinance/clauses.tsv the app carries: citation in code and in a test name.

Usage: python bench/clause_coverage.py [path/to/clauses.tsv]
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def default_tsv() -> Path:
    """../shared/ordinance/clauses.tsv from the checkout, or from a worktree one level deeper (/work/wt/<name>)."""
    for folder in (ROOT.parent, *ROOT.parent.parents):
        candidate = folder / "shared" / "ordinance" / "clauses.tsv"
        if candidate.exists():
            return candidate
    return ROOT.parent / "shared" / "ordinance" / "clauses.tsv"


tsv = Path(sys.argv[1]) if len(sys.argv) > 1 else default_tsv()
if not tsv.exists():  # a clone outside the project's folder: the timings that follow need no ordinance file
    print(f"clause coverage skipped: no {tsv} (give its path: python bench/clause_coverage.py path/to/clauses.tsv)")
    sys.exit(0)
rows = [line.split("\t") for line in tsv.read_text().splitlines()[1:] if line.strip()]


def grep(pattern: str, *paths: str) -> bool:
    result = subprocess.run(["git", "grep", "-qiE", pattern, "--", *paths], cwd=ROOT)
    return result.returncode == 0


done = 0
missing = []
for citation, area, _rule in rows:
    code_form = re.escape("§ " + citation)
    test_form = "def test_" + re.sub(r"[^0-9a-z]+", "_", citation.lower()).strip("_") + r"(_|\b)"
    in_code = grep(code_form, "permits", "sidewalks", "obstructions", "templates")
    in_test = grep(test_form, "tests")
    if in_code and in_test:
        done += 1
    else:
        missing.append(
            f"{citation:<14} {area:<16} code={'yes' if in_code else 'no ':<3} test={'yes' if in_test else 'no'}"
        )
print(f"{done} of {len(rows)} clauses carried (citation in code and in a test name)")
print("\n".join(missing))
