"""No import circle between the inspector's modules, imports under `if TYPE_CHECKING:` included:
a circle that only the type checker walks still ties two modules into one."""

from __future__ import annotations

from collections import deque

import grimp

Graph = dict[str, set[str]]


def import_graph() -> Graph:
    """Each module of `inspector` and the modules of `inspector` it imports by name."""
    graph = grimp.build_graph(
        "inspector",
        include_external_packages=False,
        exclude_type_checking_imports=False,
        cache_dir=None,
    )
    return {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}


def strongly_connected(graph: Graph) -> list[set[str]]:
    """Tarjan's components, walked without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def shortest_circle(graph: Graph, component: set[str]) -> list[str]:
    """A shortest way from the component's first module back to itself, inside the component."""
    start = min(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in sorted(graph[node] & component):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if target not in came_from:
                came_from[target] = node
                queue.append(target)
    return [start]


def circles(graph: Graph) -> list[str]:
    found = []
    for component in strongly_connected(graph):
        member = next(iter(component))
        if len(component) > 1 or member in graph[member]:
            found.append(" -> ".join(shortest_circle(graph, component)))
    return sorted(found)


def test_the_finder_sees_a_circle_and_its_way_round() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == ["a -> b -> c -> a", "e -> e"]


def test_no_module_of_the_inspector_imports_itself_round_a_circle() -> None:
    found = circles(import_graph())
    assert not found, "import circles (type-checking imports included):\n" + "\n".join(found)
