"""A test that commits empties the database when it ends: each one puts the data migrations' rows back with
serialized_rollback (tests/conftest.py), never with a hand-kept list of migrations to run again."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent


def test_every_transactional_test_restores_the_migrated_rows():
    offenders = []
    for path in ROOT.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "django_db":
                options = {k.arg: getattr(k.value, "value", None) for k in node.keywords}
                if options.get("transaction") and not options.get("serialized_rollback"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_module"
            ):
                names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                offenders += [
                    f"{path.relative_to(ROOT)}:{node.lineno} runs {n} again" for n in names if ".migrations." in n
                ]
    assert offenders == []
