"""The import graph of advisor and probes, runtime imports only (TYPE_CHECKING blocks are annotations): probes/
stands alone, importing nothing from advisor/, and no module reaches itself again through its imports."""

from __future__ import annotations

import grimp
import pytest

PACKAGES = ("advisor", "probes")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def _in(package: str, module: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def upward_imports(graph: grimp.ImportGraph) -> list[str]:
    """Each import of an advisor module by a probes module, as 'importer:line -> imported'."""
    found = []
    for importer in sorted(module for module in graph.modules if _in("probes", module)):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if _in("advisor", imported):
                lines = [
                    str(detail["line_number"])
                    for detail in graph.get_import_details(importer=importer, imported=imported)
                ]
                found.append(f"{importer}:{','.join(lines) or '?'} -> {imported}")
    return found


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (Tarjan's strongly connected
    components, iterative: the graph is deeper than Python's recursion limit allows for); a module importing
    itself counts too."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1 or module in graph.find_modules_directly_imported_by(module):
                    groups.append(sorted(group))
    return groups


def test_probes_imports_nothing_from_advisor(graph: grimp.ImportGraph):
    assert upward_imports(graph) == [], "probes/ must stand alone: move what it needs below it, into probes/"


def test_no_import_cycle(graph: grimp.ImportGraph):
    cycles = import_cycles(graph)
    for group in cycles:  # one shortest way round each group, to say where to cut
        first, second = group[0], group[1]
        chain = graph.find_shortest_chain(first, second) or ()
        back = graph.find_shortest_chain(second, first) or ()
        print(" -> ".join([*chain, *back[1:]]))
    assert cycles == []


def test_the_checks_see_an_upward_import_and_a_cycle():
    made = grimp.ImportGraph()
    for module in ("advisor", "advisor.a", "advisor.b", "advisor.c", "probes", "probes.models", "probes.runner"):
        made.add_module(module)
    made.add_import(
        importer="advisor.a", imported="probes.models", line_number=1, line_contents="from probes import models"
    )
    made.add_import(
        importer="probes.runner", imported="probes.models", line_number=1, line_contents="import probes.models"
    )
    assert upward_imports(made) == [] and import_cycles(made) == []

    made.add_import(
        importer="probes.models", imported="advisor.c", line_number=7, line_contents="from advisor import c"
    )
    assert upward_imports(made) == ["probes.models:7 -> advisor.c"]

    for importer, imported in (("advisor.a", "advisor.b"), ("advisor.b", "advisor.c"), ("advisor.c", "advisor.a")):
        made.add_import(importer=importer, imported=imported, line_number=3, line_contents=f"import {imported}")
    assert import_cycles(made) == [["advisor.a", "advisor.b", "advisor.c", "probes.models"]]
