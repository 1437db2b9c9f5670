"""Paths over a graph of places joined by links: cheapest paths and nearest places.

A game passes its own `links(here)`: the places reachable in one step from `here`, each
with what that step costs. Between paths of equal cost the one whose list of places sorts
first wins, so every referee finds the same path whatever order the links come in.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable

Links = Callable[[str], Iterable[tuple[str, int]]]


def cheapest_path(start: str, dest: str, links: Links, *, limit: int, spent: int = 0,
                  may_pass: Callable[[str], bool] = lambda place: True) -> list[str] | None:
    """The cheapest path from `start` to `dest` (Dijkstra) costing at most `limit` in all,
    `spent` already counted at the start; a place where `may_pass` is false may end a path
    but not be passed through. None when there is no such path."""
    best: dict[str, int] = {start: spent}
    queue: list[tuple[int, list[str]]] = [(spent, [start])]
    while queue:
        cost, route = heapq.heappop(queue)
        here = route[-1]
        if here == dest:
            return route
        if cost > best[here]:
            continue
        if here != start and not may_pass(here):
            continue
        for there, step in links(here):
            total = cost + step
            if total <= limit and total < best.get(there, total + 1):
                best[there] = total
                heapq.heappush(queue, (total, [*route, there]))
    return None


def nearest(start: str, neighbours: Callable[[str], Iterable[str]],
            goal: Callable[[str], bool]) -> str | None:
    """The nearest place other than `start` for which `goal` holds, by number of steps
    (breadth first, neighbours in the order given); None when none can be reached."""
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in neighbours(here):
            if there in seen:
                continue
            seen.add(there)
            if goal(there):
                return there
            queue.append(there)
    return None
