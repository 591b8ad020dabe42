"""The declared order of the portal's layers, enforced on every import (issue 28).

``LAYERS`` lists the layers from the bottom: a module may import its own unit (package) and the
units of a lower layer, never a higher layer nor another unit of its own layer (siblings stay
independent). Every import counts: top-level, inside a function, under ``TYPE_CHECKING``. The
order and why it is so are in docs/ARCHITECTURE.md ("The order of the layers").

``VIOLATIONS`` is today's list of imports that run against the order, each with how many times the
module imports that target. It may only shrink: a new violation fails the test, and so does one
that no longer exists (delete its line), so that the list stays exact. The way to remove one is a
named hook on the per-app ``Wiring`` (``portal/wiring.py``), or moving the shared piece down.
Whatever it lists, no two units may import each other, directly or round a circle.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import portal

ROOT = Path(portal.__file__).resolve().parent

# From the bottom. "kernel" is every module of portal/ outside portal/blueprints/ (models, services,
# profiles, wiring, access, views, forms, workspace, reminders, cli...); the others are the packages
# of portal/blueprints/.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("kernel",),
    ("auth", "files", "dev", "reminders", "workspace"),  # platform: know no domain
    ("account", "admin"),  # the person's account and the staff's admin pages
    ("billing", "reports", "establishments"),  # domains that need no other domain
    ("animals",),  # the RGA: who owns which animal, where
    ("licences", "adoption", "sterilisation"),  # built on the RGA
    ("impound",),  # captures, custody, reclaim (uses RGA, licences, adoption, reports, billing)
    ("enforcement",),  # notices, fines, apprehension (acts on all of the above)
    ("main", "api"),  # entry points over several domains: the home page, /api/v1
    ("open311",),  # the Open311 dialect of reports, on the API's schema tools
)

# create_app/wire_domains and the BLUEPRINTS list name every domain: that is their job.
COMPOSITION_ROOTS = frozenset({"portal", "portal.blueprints"})

# Today's imports against the order: "importer -> imported module": how many times. Empty since
# issue 28's last six went (hooks on the Wiring, the password hasher moved down into the kernel);
# an entry added here needs its reason in docs/ARCHITECTURE.md.
VIOLATIONS: dict[str, int] = {}


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _unit(module: str) -> str | None:
    """The unit (a blueprint package, or "kernel") of a module; None for a composition root."""
    if module in COMPOSITION_ROOTS:
        return None
    parts = module.split(".")
    return parts[2] if parts[1:2] == ["blueprints"] else "kernel"


def _rank(unit: str) -> int:
    for rank, units in enumerate(LAYERS):
        if unit in units:
            return rank
    raise AssertionError(f"{unit!r} has no layer: add it to LAYERS (and to docs/ARCHITECTURE.md)")


def _imports(module: str, path: Path, source: str | None = None) -> list[tuple[str, int]]:
    """Every portal module ``module`` imports, with the line, resolved to the module imported
    (``from portal.blueprints.animals import services`` is portal.blueprints.animals.services).
    ``source`` stands for the file's text (the reader's own test)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    text = path.read_text(encoding="utf-8") if source is None else source
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.append((child if child in MODULES else base, node.lineno))
    # one per statement and module: ``from x import a, b`` is one import of x
    return [
        (name, line)
        for name, line in dict.fromkeys(found)
        if name == "portal" or name.startswith("portal.")
    ]


def _against_the_order() -> tuple[Counter[str], dict[str, list[str]]]:
    counts: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for module, path in sorted(MODULES.items()):
        unit = _unit(module)
        if unit is None:
            continue
        for target, line in _imports(module, path):
            other = _unit(target)
            if other is None or other == unit or _rank(other) < _rank(unit):
                continue
            key = f"{module} -> {target}"
            counts[key] += 1
            where.setdefault(key, []).append(f"{path.relative_to(ROOT.parent)}:{line}")
    return counts, where


def test_every_blueprint_package_has_a_layer() -> None:
    packages = {p.parent.name for p in (ROOT / "blueprints").glob("*/__init__.py")}
    placed = {unit for units in LAYERS for unit in units}
    assert packages <= placed, f"place {sorted(packages - placed)} in LAYERS"
    assert placed - {"kernel"} <= packages, f"{sorted(placed - packages - {'kernel'})} is gone"


def test_imports_follow_the_declared_order_of_the_layers() -> None:
    counts, where = _against_the_order()
    new = {
        key: where[key][VIOLATIONS.get(key, 0) :]
        for key, n in counts.items()
        if n > VIOLATIONS.get(key, 0)
    }
    gone = {key: n - counts.get(key, 0) for key, n in VIOLATIONS.items() if counts.get(key, 0) < n}
    assert not new, (
        "imports against the order of the layers (docs/ARCHITECTURE.md): add a hook on the app's "
        f"Wiring or move the shared piece down instead: {new}"
    )
    assert not gone, f"these violations are gone (fewer than listed): lower VIOLATIONS {gone}"


def test_the_shared_layer_imports_no_domain_beyond_the_listed_ones() -> None:
    counts, _where = _against_the_order()
    from_kernel = {key for key in counts if _unit(key.split(" -> ")[0]) == "kernel"}
    listed = {key for key in VIOLATIONS if _unit(key.split(" -> ")[0]) == "kernel"}
    assert from_kernel == listed


def _unit_graph() -> dict[str, set[str]]:
    """Which unit imports which other unit, every import counted (listed violations too)."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        unit = _unit(module)
        if unit is None:
            continue
        for target, _line in _imports(module, path):
            other = _unit(target)
            if other is not None and other != unit:
                graph.setdefault(unit, set()).add(other)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected group of units (Tarjan), each from its first unit."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(unit: str) -> None:
        index[unit] = low[unit] = len(index)
        stack.append(unit)
        for other in sorted(graph.get(unit, ())):
            if other not in index:
                visit(other)
                low[unit] = min(low[unit], low[other])
            elif other in stack:
                low[unit] = min(low[unit], index[other])
        if low[unit] == index[unit]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == unit:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for unit in sorted(graph):
        if unit not in index:
            visit(unit)
    return found


def test_no_two_units_import_each_other_nor_in_a_circle() -> None:
    """Whatever ``VIOLATIONS`` lists, no two domains (nor the kernel and a domain) import each
    other, directly or round a circle: the order of the layers exists only without circles."""
    graph = _unit_graph()
    pairs = sorted(
        {tuple(sorted((a, b))) for a in graph for b in graph[a] if a in graph.get(b, ())}
    )
    assert not pairs, f"units that import each other: {pairs}"
    assert not _circles(graph), f"units that import each other round a circle: {_circles(graph)}"


def test_the_circle_finder_sees_a_pair_and_a_longer_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": {"c"}}) == []


def test_the_resolver_sees_function_level_relative_and_package_imports() -> None:
    """The reader itself: an import inside a function, under ``TYPE_CHECKING``, a relative import
    and ``from package import module`` all resolve to the module imported."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import services\n"
        "from .labels import AUDIT_LABELS\n"
        "from portal.blueprints.impound import apprehension\n"
        "if TYPE_CHECKING:\n"
        "    from portal.models import Capture\n"
        "def later():\n"
        "    from portal.blueprints.animals.rga import normalise_rga\n"
        "    import portal.services.audit\n"
    )
    path = ROOT / "blueprints" / "enforcement" / "example.py"
    names = {
        name for name, _line in _imports("portal.blueprints.enforcement.example", path, source)
    }
    assert names == {
        "portal.blueprints.enforcement.services",
        "portal.blueprints.enforcement.labels",
        "portal.blueprints.impound.apprehension",
        "portal.models",
        "portal.blueprints.animals.rga",
        "portal.services.audit",
    }


def _is_facade(path: Path) -> bool:
    """A ``services.py`` that only re-exports: docstring, imports and ``__all__``, nothing else."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    for index, node in enumerate(body):
        if isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else []
        if targets and all(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            continue
        return False
    return True


# Modules that still import their own domain's facade, with why; it may only shrink, like
# VIOLATIONS. impound's public and staff pages hand the facade to their templates as ``s``.
OWN_FACADE_IMPORTS: frozenset[str] = frozenset(
    {
        "portal.blueprints.impound.routes",
        "portal.blueprints.impound.staff",
        "portal.blueprints.impound.staff.laudos",
    }
)


def test_a_domain_facade_is_only_for_callers_outside_the_domain() -> None:
    """A domain's ``services.py`` that only re-exports is for the other domains: its own modules
    import each name from the module that defines it (docs/ARCHITECTURE.md, "One shape per
    domain"), so that the facade can never be half of an import circle inside the package."""
    facades = {
        module: path
        for module, path in MODULES.items()
        if module.startswith("portal.blueprints.")
        and module.count(".") == 3
        and path.name == "services.py"
        and _is_facade(path)
    }
    assert facades, "no facade found: the detector is broken"
    found = set()
    where = []
    for facade in sorted(facades):
        package = facade.rpartition(".")[0]
        for module, path in sorted(MODULES.items()):
            if module == facade or not module.startswith(package + "."):
                if module != package:
                    continue
            for target, line in _imports(module, path):
                if target == facade:
                    found.add(module)
                    if module not in OWN_FACADE_IMPORTS:
                        where.append(f"{path.relative_to(ROOT.parent)}:{line}")
    assert not where, "import the name from its defining module, not the facade:\n" + "\n".join(
        where
    )
    assert OWN_FACADE_IMPORTS <= found, (
        f"no longer imports its facade, delete it: {sorted(OWN_FACADE_IMPORTS - found)}"
    )


def test_the_facade_detector_tells_a_facade_from_a_module_with_code(tmp_path: Path) -> None:
    facade = tmp_path / "services.py"
    facade.write_text('"""Doc."""\nfrom a import b\n__all__ = ["b"]\n', encoding="utf-8")
    code = tmp_path / "code.py"
    code.write_text('"""Doc."""\nfrom a import b\n\ndef f():\n    return b\n', encoding="utf-8")
    assert _is_facade(facade)
    assert not _is_facade(code)
