"""``cardcanon analyze`` writes to the user cache or a named folder, never into results/ unasked,
and prints the figures it computed."""

from pathlib import Path

import pytest

from cardcanon import analysis_output
from cardcanon.cli import main

SMALL = ["analyze", "snap", "--players", "3", "--policies", "owner-first", "--deals", "20", "--no-enumerate",
         "--no-records", "-q"]


def test_default_output_is_the_user_cache_not_the_current_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("CARDCANON_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results" / "analysis").mkdir(parents=True)
    assert main([*SMALL, "--reference-model"]) == 0  # the kernel plays where it can; the folder is the point
    out = capsys.readouterr().out
    written = tmp_path / "cache" / "cardcanon" / "analysis" / "snap.json"
    assert written.is_file() and not any((tmp_path / "results" / "analysis").iterdir())
    assert out.startswith("Snap 3p owner-first: 20 deals, ") and "never ends" in out
    assert out.rstrip().endswith(f"Written to {written}.")


def test_update_results_names_the_checkout_folder_and_out_is_exclusive(tmp_path, capsys):
    assert analysis_output.results_folder() == Path(__file__).resolve().parents[1] / "results" / "analysis"
    assert main([*SMALL, "--out", str(tmp_path), "--update-results"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf", "1e12"])
def test_budget_must_be_a_positive_finite_number_of_seconds(tmp_path, capsys, value):
    assert main([*SMALL, "--out", str(tmp_path), "--seconds-per-cell", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --seconds-per-cell: expected a number of seconds" in err


ROOT = Path(__file__).resolve().parents[1]


def test_published_records_are_compressed_and_named_by_their_summaries():
    """The records in results/ are gzip-compressed JSON (``.json.gz``), each one named by its cell."""
    import json

    for summary in (ROOT / "results" / "analysis" / "snap.json", ROOT / "results" / "exact" / "snap-exact.json"):
        named = {rec["file"] for cell in json.loads(summary.read_text(encoding="utf-8"))["cells"]
                 for rec in (cell.get("records") or {}).values() if rec.get("file")}
        folder = summary.parent / "records"
        assert named and named == {p.relative_to(ROOT).as_posix() for p in folder.iterdir()}, summary.name
        assert all(name.endswith(".json.gz") for name in named)


def test_a_compressed_record_is_read_as_written_and_a_damaged_one_is_refused(tmp_path):
    import gzip

    from cardcanon.model.errors import RecordError
    from cardcanon.model.snap import SnapConfig
    from cardcanon.model.snap_policies import game_record, play_game
    from cardcanon.record_file import read_record_file, write_record

    record = game_record(play_game(SnapConfig(players=2), 3, "flipper-first", max_flips=40))
    path = tmp_path / "game.json.gz"
    write_record(path, record)
    first = path.read_bytes()
    write_record(path, record)
    assert path.read_bytes() == first and first[:2] == b"\x1f\x8b"  # the same bytes each time, gzip
    write_record(tmp_path / "plain.json", record)
    assert read_record_file(path) == record == read_record_file(tmp_path / "plain.json")
    path.write_bytes(gzip.compress(b'{"game": "snap"')[:-8])  # cut short
    with pytest.raises(RecordError, match=r"game\.json\.gz: not a complete gzip file"):
        read_record_file(path)
