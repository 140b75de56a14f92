"""Every Violation code a permit type's `blockers` hook can return, read from the source: the hook's body and every
project function it calls, followed through module names and the imports inside functions. A function that passes
one of its parameters on as a Violation's code (`_error(field, code, ...)`) is a factory: its callers' literal is the
code. A code built by an f-string is kept as a pattern (`{kind}_missing` -> `.*_missing`); any other code that is not
a literal is kept as "?" with its function, so the map's test names it instead of missing it; a violation copied
from another (`Violation(field, v.code, ...)`) passes on the codes of the function that made it, read there."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import textwrap
import types

PROJECT = ("permits", "sidewalks", "obstructions")


def _in_project(obj) -> bool:
    return (getattr(obj, "__module__", "") or "").split(".")[0] in PROJECT


def _callee_name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _code_arg(call: ast.Call):
    for kw in call.keywords:
        if kw.arg == "code":
            return kw.value
    return call.args[1] if len(call.args) > 1 else None


def _code_of(node) -> str | None:
    """A literal code, an f-string's pattern ("re:..."), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = [re.escape(v.value) if isinstance(v, ast.Constant) else ".+" for v in node.values]
        return "re:" + "".join(parts)
    return None


def _namespace(func, node) -> dict:
    """The function's globals plus what the imports inside its body bind."""
    ns = dict(func.__globals__)
    for sub in ast.walk(node):
        if isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
            module = importlib.import_module(sub.module)
            for alias in sub.names:
                value = getattr(module, alias.name, None)
                if value is None:
                    value = importlib.import_module(f"{sub.module}.{alias.name}")
                ns[alias.asname or alias.name] = value
        elif isinstance(sub, ast.Import):
            for alias in sub.names:
                ns[alias.asname or alias.name.split(".")[0]] = importlib.import_module(
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
    return ns


def _resolve(expr, ns):
    if isinstance(expr, ast.Name):
        return ns.get(expr.id)
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, ns)
        if isinstance(base, types.ModuleType | type):
            return getattr(base, expr.attr, None)
    return None


def _tree(func) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(inspect.getsource(func))).body[0]


class BlockerCodes:
    def __init__(self, also_walk=None):
        self.codes: dict[str, set[str]] = {}  # code -> the functions that raise it
        self.seen: set = set()
        self._factories: dict = {}
        # function -> the functions it reaches through a registry (e.g. permits.street_work's modules)
        self.also_walk = also_walk or {}

    def _add(self, code: str, where: str) -> None:
        self.codes.setdefault(code, set()).add(where)

    def _factory_index(self, func) -> int | None:
        if func not in self._factories:
            self._factories[func] = None
            node = _tree(func)
            params = [a.arg for a in node.args.args + node.args.kwonlyargs]
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call) and _callee_name(sub) == "Violation":
                    code = _code_arg(sub)
                    if isinstance(code, ast.Name) and code.id in params:
                        self._factories[func] = params.index(code.id)
        return self._factories[func]

    def walk(self, func) -> BlockerCodes:
        func = inspect.unwrap(func)
        if not inspect.isfunction(func) or func in self.seen or not _in_project(func):
            return self
        self.seen.add(func)
        node = _tree(func)
        ns = _namespace(func, node)
        where = f"{func.__module__}.{func.__qualname__}"
        for sub in ast.walk(node):
            if not isinstance(sub, ast.Call):
                continue
            if _callee_name(sub) == "Violation":
                code_node = _code_arg(sub)
                code = _code_of(code_node)
                params = [a.arg for a in node.args.args + node.args.kwonlyargs]
                passed_on = isinstance(code_node, ast.Attribute) and code_node.attr == "code"  # Violation(.., v.code)
                if code is not None:
                    self._add(code, where)
                elif not passed_on and not (isinstance(code_node, ast.Name) and code_node.id in params):
                    self._add("?", where)
                continue
            callee = _resolve(sub.func, ns)
            if callee is None or not inspect.isfunction(inspect.unwrap(callee)) or not _in_project(callee):
                continue
            callee = inspect.unwrap(callee)
            index = self._factory_index(callee)
            if index is not None:
                by_name = {kw.arg: kw.value for kw in sub.keywords}
                params = [a.arg for a in _tree(callee).args.args]
                node_ = (
                    sub.args[index]
                    if index < len(sub.args)
                    else by_name.get(params[index] if index < len(params) else "code")
                )
                code = _code_of(node_)
                self._add(code or "?", where)
            self.walk(callee)
            for reached in self.also_walk.get(callee, ()):
                self.walk(reached)
        return self
