"""Issue 9's size rules, checked on every run: no module under ``portal/`` over 600 lines
(generated migrations excepted) and no view function over 40 lines.

A view function is one decorated with a route (``@bp.get``, ``@bp.post``, ``@bp.route`` …).
Run ``python -m tests.unit.test_code_size`` to list every offender with its size."""

from __future__ import annotations

import ast
from pathlib import Path

PORTAL = Path(__file__).resolve().parents[2] / "portal"
MAX_MODULE_LINES = 600
MAX_VIEW_LINES = 40
ROUTE_DECORATORS = {"route", "get", "post", "put", "patch", "delete"}


def _modules() -> list[Path]:
    return sorted(p for p in PORTAL.rglob("*.py") if "migrations" not in p.parts)


def _is_view(node: ast.FunctionDef) -> bool:
    for deco in node.decorator_list:
        call = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(call, ast.Attribute) and call.attr in ROUTE_DECORATORS:
            return True
    return False


def long_modules() -> list[tuple[str, int]]:
    found = []
    for path in _modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            found.append((str(path.relative_to(PORTAL.parent)), lines))
    return found


def long_views() -> list[tuple[str, int]]:
    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and _is_view(node):
                # The body, from the def line to the last line (decorators not counted).
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > MAX_VIEW_LINES:
                    where = f"{path.relative_to(PORTAL.parent)}:{node.lineno} {node.name}"
                    found.append((where, size))
    return found


def test_no_module_under_portal_is_over_600_lines() -> None:
    assert long_modules() == []


def test_no_view_function_is_over_40_lines() -> None:
    assert long_views() == []


if __name__ == "__main__":
    for name, size in long_modules():
        print(f"module {size:5d}  {name}")
    for name, size in long_views():
        print(f"view   {size:5d}  {name}")
