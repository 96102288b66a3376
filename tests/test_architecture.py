"""The shape DESIGN.md promises: nothing outside a game's package knows a game, and the
packages import each other in one direction only (no import circles)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ludothek

ROOT = Path(ludothek.__file__).parent
LAYERS = ("core", "boards", "games", "ai", "web", "integrations", "cli")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Every ludothek module ``path`` imports, at module level or inside a function, but not
    under ``if TYPE_CHECKING`` (those never run). ``from package import module`` counts as
    importing the module (a parent package is always imported before its modules)."""
    tree = ast.parse(path.read_text("utf-8"))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    stem = ".".join(base + ([child.module] if child.module else []))
                else:
                    stem = child.module or ""
                for alias in child.names:
                    found.add(f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem)
            visit(child)

    visit(tree)
    return found & modules


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(path): path for path in ROOT.rglob("*.py")}
    return {name: _imports(path, set(paths)) - {name} for name, path in paths.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_no_module_imports_itself_in_a_circle():
    assert _cycles(_graph()) == []


def test_the_packages_import_each_other_in_one_direction():
    layers: dict[str, set[str]] = {layer: set() for layer in LAYERS}
    for module, imported in _graph().items():
        for other in imported:
            a, b = _layer(module), _layer(other)
            if a and b and a != b:
                layers[a].add(b)
    assert _cycles(layers) == [], layers


def test_the_cycle_finder_finds_a_planted_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    graph = _graph()
    assert "ludothek.core.spec" in graph["ludothek.core.registry"]
    assert "ludothek.core.protocol" not in graph["ludothek.core.registry"]  # only for type checking
    assert "ludothek.core.registry" in graph["ludothek.core.protocol"]  # a lazy import counts


def test_no_file_outside_the_games_packages_names_a_game():
    names = [name for name in ludothek.games()]
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b", re.IGNORECASE)
    offenders = []
    for path in ROOT.rglob("*"):
        if not path.is_file() or path.suffix not in (".py", ".js", ".json", ".html", ".css", ".md"):
            continue
        if path.relative_to(ROOT).parts[0] == "games":
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []



def test_the_kernel_cache_ignores_only_modules_no_kernel_depends_on():
    """jit_cache leaves web/, cli.py, terminal.py and i18n.py out of the kernel cache's key: sound only
    while no module that uses numba imports any of them, directly or through other modules."""
    from ludothek.core.jit_cache import _NO_KERNELS

    def ignored(module: str) -> bool:
        relative = module.removeprefix("ludothek.").replace(".", "/")
        return any(relative == part.removesuffix(".py").rstrip("/") or relative.startswith(part)
                   for part in _NO_KERNELS)

    graph = _graph()
    paths = {_module_name(path): path for path in ROOT.rglob("*.py")}
    kernels = [name for name, path in paths.items() if "numba" in path.read_text("utf-8") and not ignored(name)]
    assert "ludothek.games.trike.kernels" in kernels
    assert ignored("ludothek.web.app") and ignored("ludothek.cli") and not ignored("ludothek.core.spec")
    reached, todo = set(kernels), list(kernels)
    while todo:
        for other in graph[todo.pop()] - reached:
            reached.add(other)
            todo.append(other)
    assert sorted(filter(ignored, reached)) == []
