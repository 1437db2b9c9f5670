"""CI (PBEM_REQUIRE_TOOLS=1) fails a test whose outside part is missing; elsewhere it skips."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import need_shared, need_tool


@pytest.mark.parametrize("required", ["1", ""])
def test_a_missing_part_fails_under_ci_and_skips_elsewhere(monkeypatch, tmp_path: Path,
                                                           required: str) -> None:
    monkeypatch.setenv("PBEM_REQUIRE_TOOLS", required)
    expected = pytest.fail.Exception if required else pytest.skip.Exception
    with pytest.raises(expected, match="is not here; it lives in ../shared"):
        need_shared(tmp_path / "shared" / "testdata")
    with pytest.raises(expected, match="no-such-tool-pbem is not on PATH"):
        need_tool("no-such-tool-pbem")
    assert need_shared(tmp_path) == tmp_path  # present: given back
