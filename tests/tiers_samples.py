"""Code for tests/project/test_tiers.py to read, never to run: each function does what its name
says, and the tiers must tell which of them are slow. The tests reach this module by
importlib only, so that their own code reaches none of it."""

from __future__ import annotations

import importlib
import subprocess

import pbem
from pbem import api, dice


def pure() -> bool:
    return dice.verify_link(b"a", b"b") and all(x for x in range(2))


def starts_git() -> None:
    subprocess.run(["git", "status"], check=True)


def through_a_helper() -> None:
    starts_git()


def through_two_helpers() -> None:
    through_a_helper()


def imports_api_inside() -> object:
    from pbem import api as inside

    return inside


def imports_a_submodule_inside() -> object:
    import pbem.store

    return pbem.store


def an_attribute_of_a_module() -> object:
    return pbem.campaign


def a_global_module() -> object:
    return api.status


def in_a_comprehension() -> list[object]:
    return [subprocess.DEVNULL for _ in range(2)]


def in_a_lambda() -> object:
    return lambda: subprocess.DEVNULL


class Helper:
    def method(self) -> None:
        starts_git()


def through_a_class() -> None:
    Helper().method()


def one() -> None:
    two()


def two() -> None:
    one()


def imports_a_helper_inside() -> object:
    from tiers_samples import through_a_helper

    return through_a_helper


def opaque() -> None:
    """Starts a process through names no reading can follow: only the guard sees it."""
    importlib.import_module("sub" + "process").run(["true"], check=True)
