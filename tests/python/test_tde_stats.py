"""itch5.tde: the delay estimator's windows and summary as tables (a file against itself: no delay)."""

import subprocess

import pytest

import itch5

pytest.importorskip("pyarrow")


def test_tde_of_a_file_against_itself_finds_no_delay(sample, tool, tmp_path):
    inside = tmp_path / "inside.txt"
    subprocess.run([tool("itch5inside"), sample, "--quiet", "-o", str(inside)], check=True)
    windows, summary = itch5.tde(str(inside), str(inside), symbols=["SPY", "QQQ"])
    assert windows.num_rows >= 1 and summary.num_rows >= 1
    assert set(windows.column("symbol").to_pylist()) <= {"SPY", "QQQ", "__aggregate__"}
    assert all(d == 0 for d in windows.column("delay_us").to_pylist() if d is not None)


def test_tde_reports_the_program_error(tmp_path):
    with pytest.raises((RuntimeError, FileNotFoundError)):
        itch5.tde(str(tmp_path / "missing-a.txt"), str(tmp_path / "missing-b.txt"))
