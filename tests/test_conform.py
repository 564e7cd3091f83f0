"""Conformance: the vectors are up to date and valid, and ``cardcanon conform`` passes the
reference models and an independent implementation, and fails broken ones naming the rule."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardcanon import schemas
from cardcanon.conform import adapter, files, overlaps, vectors
from cardcanon.spec import load as load_rulebook
from conftest import PROFILE

ROOT = Path(__file__).resolve().parents[1]
VECTORS = vectors.vector_dir()
MINIMAL = [sys.executable, str(ROOT / "tests" / "conform" / "minimal.py")]
REFERENCE = [sys.executable, "-m", "cardcanon.conform.reference"]


def conform(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardcanon", "conform", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def documents():
    index = vectors.load_index(VECTORS)
    return [(entry["path"], json.loads((VECTORS / entry["path"]).read_text(encoding="utf-8")))
            for entry in index["files"]]


# ---- the vectors ---------------------------------------------------------------------------
@pytest.mark.slow  # writes every vector again
def test_vectors_are_the_ones_the_generator_writes(tmp_path):
    """CI fails when the models, the rulebook or the generator change and the vectors were not
    rewritten with ``cardcanon conform --write``."""
    vectors.write(tmp_path)
    fresh = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.glob("**/*.json")}
    shipped = {p.relative_to(VECTORS).as_posix(): p.read_bytes() for p in VECTORS.glob("**/*.json")}
    assert sorted(fresh) == sorted(shipped)
    stale = [name for name in fresh if fresh[name] != shipped[name]]
    assert not stale, f"out of date (run `cardcanon conform --write`): {stale}"


def test_schemas_are_draft_2020_12():
    from jsonschema import Draft202012Validator

    for name in schemas.names():
        schema = schemas.load(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)
    from cardcanon.conform import protocol

    for name in ("conformance-index", "conformance-vectors"):  # the protocol version has one source
        assert schemas.load(name)["properties"]["protocol"]["const"] == protocol.VERSION
        assert schemas.load(name)["properties"]["version"] == {"const": vectors.VERSION}


def test_the_index_validates_and_lists_every_file():
    index = vectors.load_index(VECTORS)
    assert not list(schemas.validator("conformance-index").iter_errors(index))
    listed = {entry["path"] for entry in index["files"]}
    assert listed == {p.relative_to(VECTORS).as_posix() for p in VECTORS.glob("*/*.json")}


@pytest.mark.parametrize("path", [
    entry["path"] if entry["path"] in ("hearts/default.json", "snap/players-2.json")  # one per game; all with -m slow
    else pytest.param(entry["path"], marks=pytest.mark.slow) for entry in vectors.load_index(VECTORS)["files"]])
def test_every_vector_file_validates_against_its_schema(path):
    """The runner's validation (each vector against its kind's branch, each distinct move once)."""
    document = json.loads((VECTORS / path).read_text(encoding="utf-8"))
    files.validate_vectors(document, VECTORS / path)


@pytest.mark.slow  # CI: one file in three, of both games; a thorough run: every file
@pytest.mark.parametrize("path", [entry["path"] for entry in vectors.load_index(VECTORS)["files"]][
    ::1 if PROFILE == "thorough" else 3])
def test_every_vector_file_validates_against_the_whole_schema(path):
    """The same, with the schema as a whole (slow: minutes for every file)."""
    document = json.loads((VECTORS / path).read_text(encoding="utf-8"))
    errors = [f"{e.json_path}: {e.message[:200]}" for e in schemas.validator("conformance-vectors").iter_errors(document)]
    assert not errors, f"{path}: {errors[:3]}"


def test_the_runner_validation_finds_what_the_schema_finds():
    path, document = documents()[0]
    small = {**document, "vectors": document["vectors"][:3]}
    files.validate_vectors(small, Path(path))
    for breakage in (lambda v: v.pop("expect"), lambda v: v.update(rules=["not-a-rule"]),
                     lambda v: v.update(kind="chess"), lambda v: v.update(moves=[{"move": "fly"}])):
        broken = json.loads(json.dumps(small))
        breakage(broken["vectors"][-1])
        assert list(schemas.validator("conformance-vectors").iter_errors(broken))
        with pytest.raises(ValueError, match="not a conformance vector file: vector 3"):
            files.validate_vectors(broken, Path(path))


def test_the_schema_rejects_a_broken_vector():
    path, document = documents()[0]
    broken = {**document, "vectors": [json.loads(json.dumps(v)) for v in document["vectors"][:1]]}
    assert not list(schemas.validator("conformance-vectors").iter_errors(broken))
    broken["vectors"][0]["rules"] = ["not-a-rule"]
    assert list(schemas.validator("conformance-vectors").iter_errors(broken))
    del broken["vectors"][0]["expect"]
    assert list(schemas.validator("conformance-vectors").iter_errors(broken))


def test_vectors_cite_real_rules_and_use_record_moves():
    """Every cited rule exists in the rulebook, and every move is a game-record move."""
    known = {game: {rule.id for rule in load_rulebook(game).rules} for game in adapter.GAMES}
    for path, document in documents():
        game = document["game"]
        position = adapter.Position.start(game, document["config"])
        ids = [v["id"] for v in document["vectors"]]
        assert len(ids) == len(set(ids)), path
        for vector in document["vectors"]:
            cited = set(vector["rules"]) | {f["rule"] for f in vector.get("forbidden", [])}
            cited |= {r for f in vector.get("forbidden", []) for r in f.get("also", {}).get("rules", [])}
            cited |= set(vector.get("applies", []))
            assert cited <= known[game], (path, vector["id"], cited - known[game])
            for move in vector.get("moves", []) + [vector.get("move")] * ("move" in vector):
                position.move_from_json(move)


def test_every_variation_option_has_a_file_or_a_reason():
    index = vectors.load_index(VECTORS)
    spelled = {True: "on", False: "off"}  # a switch's config value, as the rulebook names the option
    covered = {(f["game"], p, spelled.get(o, o) if isinstance(o, bool) else o)
               for f in index["files"] for p, o in f["variant"].items()}
    covered |= {(s["game"], s["parameter"], s["option"]) for s in index["skipped"]}
    for game in adapter.GAMES:
        for rule in load_rulebook(game).rules:
            if rule.variation:
                for option in rule.variation.options:
                    if option.value != rule.variation.default:
                        assert (game, rule.variation.parameter, option.value) in covered


@pytest.mark.parametrize("path", [entry["path"] for entry in vectors.load_index(VECTORS)["files"]])
def test_the_edge_positions_are_there(path):
    document = json.loads((VECTORS / path).read_text(encoding="utf-8"))
    ids = {v["id"] for v in document["vectors"]}
    config = document["config"]
    if document["game"] == "hearts":
        wanted = {"legal-two-of-clubs-dead", "legal-two-and-four-of-clubs-dead", "legal-leader-only-hearts"}
    else:
        wanted = {"legal-empty-face-down"}
        wanted |= {"legal-player-out-call"} if 3 <= config["players"] <= 4 else set()
        wanted |= {"legal-pile-and-pot"} if config["players"] <= 4 and not config["index_card"] else set()
    assert wanted <= ids, wanted - ids


# ---- the runner ----------------------------------------------------------------------------
@pytest.mark.slow  # every vector through the reference models; quick: the independent implementation below
@pytest.mark.parametrize("game", adapter.GAMES)
def test_the_reference_models_pass(game):
    result = conform("-q", "--only", game, "--", *REFERENCE)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert " 0 failed" in result.stdout


@pytest.mark.slow  # every vector; quick: a Snap-only run in test_conform_failures.py, broken ones below
@pytest.mark.parametrize("game", adapter.GAMES)
def test_an_independent_implementation_passes(game):
    result = conform("-q", "--only", game, "--", *MINIMAL)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr


@pytest.mark.parametrize("rule, only", [
    ("HEARTS-BREAK-1", "hearts/default"),
    ("SNAP-CALL-2", "snap/players-3"),
])
def test_a_broken_implementation_fails_naming_the_rule(rule, only):
    result = conform("-q", "--only", only, "--", *MINIMAL, "--break", rule)
    assert result.returncode == 1
    failures = [line.split("rule:", 1)[1].strip() for line in result.stdout.splitlines() if "rule:" in line]
    assert failures and rule in failures, result.stdout[-2000:]
    assert "expected:" in result.stdout and "got:" in result.stdout and "position:" in result.stdout


@pytest.mark.slow  # quick: the broken implementations above
def test_a_broken_pot_rule_fails_a_golden_game():
    result = conform("-q", "--only", "snap/players-3", "--only", "snap/players-2", "--", *MINIMAL,
                     "--break", "SNAP-POT-1")
    assert result.returncode == 1
    assert "FAIL snap/players-2 game-" in result.stdout or "FAIL snap/players-3 game-" in result.stdout


def test_errors_are_one_line_without_a_traceback(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "index.json").write_text('{"files": [{"path": "hearts/x.json"}]}')
    (broken / "hearts").mkdir()
    (broken / "hearts" / "x.json").write_text('{"vectors": [')
    for args in (["--only", "snap/players-2", "--", str(tmp_path / "missing")], [], ["--write", "--", "x"], ["--timeout", "0", "--", "x"],
                 ["--vectors", str(tmp_path), "--", "x"], ["--only", "chess", "--", *REFERENCE],
                 ["--vectors", str(broken), "--", *REFERENCE]):
        result = conform(*args, timeout=60)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)


def test_the_worked_examples_in_the_docs_are_real_sessions():
    """The sessions shown in docs/conformance.rst (each from its hello) are what the reference
    models answer."""
    text = (ROOT / "docs" / "conformance.rst").read_text(encoding="utf-8").splitlines()
    sessions: list[tuple[list[str], list[dict]]] = []
    for line in text:
        if line.startswith("   > ") and '"op":"hello"' in line:
            sessions.append(([], []))
        if line.startswith("   > "):
            sessions[-1][0].append(line[5:])
        elif line.startswith("   < "):
            sessions[-1][1].append(json.loads(line[5:]))
    assert len(sessions) == 2 and {json.loads(r[0])["game"] for r, _ in sessions} == {"hearts", "snap"}
    for requests, shown in sessions:
        assert len(requests) == len(shown) >= 5
        result = subprocess.run(REFERENCE, input="\n".join(requests) + "\n", capture_output=True, text=True,
                                timeout=60, cwd=ROOT)
        answers = [json.loads(line) for line in result.stdout.splitlines()]
        for answer in answers + shown:
            answer.pop("implementation", None)  # names the version
        assert answers == shown


def test_the_docs_name_every_termination_position_field_and_op():
    from cardcanon.conform import positions, protocol
    from cardcanon.model import hearts, snap

    text = (ROOT / "docs" / "conformance.rst").read_text(encoding="utf-8")
    for termination in list(hearts.Termination) + list(snap.Termination):
        assert f'``"{termination.value}"``' in text, termination
    for op in protocol.REQUESTS:
        assert f"``{op}``" in text, op
    start = adapter.Position.start("hearts", adapter.default_config("hearts"))
    for game, state in (("hearts", start.state), ("snap", adapter.Position.start("snap", adapter.default_config("snap")).state)):
        for key in positions.position_json(game, state):
            assert f"``{key}``" in text, (game, key)


@pytest.mark.slow
def test_the_wheel_ships_the_vectors_and_schemas(tmp_path):
    """``pip wheel .`` holds the vectors and schemas, and an install of it finds and passes them."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path / "dist")],
                   check=True, capture_output=True, timeout=600)
    wheel = next((tmp_path / "dist").glob("cardcanon-*.whl"))
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"cardcanon/conformance/{p.relative_to(VECTORS).as_posix()}" for p in VECTORS.glob("**/*.json")}
    assert shipped <= names
    assert {f"cardcanon/schemas/{name}.schema.json" for name in schemas.names()} <= names
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    env = {**__import__("os").environ, "PYTHONPATH": str(target)}
    where = subprocess.run([sys.executable, "-c", "from cardcanon.conform.vectors import vector_dir; print(vector_dir())"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, check=True).stdout.strip()
    assert Path(where) == target / "cardcanon" / "conformance"
    result = subprocess.run([sys.executable, "-m", "cardcanon", "conform", "-q", "--only", "hearts/default", "--",
                             sys.executable, "-m", "cardcanon.conform.reference"],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr


def test_a_seat_past_the_table_is_as_the_docs_say():
    """Snap: a seat past the table is a well-formed move that a rule refuses; Hearts: invalid."""
    snap3 = adapter.Position.start("snap", adapter.default_config("snap", players=3))
    snap3 = snap3.apply_all(adapter.deal("snap", adapter.default_config("snap", players=3), 1)["moves"])
    assert adapter.illegal_rule(snap3, {"move": "flip", "player": 7}) == "SNAP-TURN-1"
    assert adapter.illegal_rule(snap3.apply({"move": "flip", "player": snap3.seat_to_move()}),
                                {"move": "call", "caller": 7, "kind": "snap"}) == "SNAP-CALL-2"
    hearts = adapter.Position.start("hearts", adapter.default_config("hearts"))
    hearts = hearts.apply_all(adapter.deal("hearts", adapter.default_config("hearts"), 1)["moves"])
    with pytest.raises(adapter.NotAMove):
        hearts.apply({"move": "play", "player": 2, "card": "2c"})


def test_conform_and_the_records_write_one_position_form():
    """The position ``show`` answers is the one a game record's ``start`` and ``reaches`` hold:
    each game's ``position_to_json``, and nothing else writes a position."""
    from cardcanon.conform import positions
    from cardcanon.model.game import game_api
    from cardcanon.proofs import records

    for game in adapter.GAMES:
        config = adapter.default_config(game)
        api = game_api(game)
        position = adapter.Position.start(game, config).apply_all(adapter.deal(game, config, 3)["moves"])
        for _ in range(6):
            state, form = position.state, api.position_to_json(position.state)
            assert positions.position_json(game, state) == position.canonical() == form
            assert records.fingerprint(game, state) == {"position": form, "outcome": api.outcome_to_json(None)}
            record = records.game_record(game, state.config, [], state, label="here", start=state)
            assert record["start"] == record["reaches"]["position"] == form
            position = position.apply(position.legal_moves()[0])
    assert not [name for name in vars(positions) if name.endswith("_position")]


def test_rule_vectors_come_first_in_every_file():
    for path, document in documents():
        kinds = [v["kind"] for v in document["vectors"]]
        first_other = next(i for i, kind in enumerate(kinds) if kind != "rule")
        assert "rule" not in kinds[first_other:], path
        assert kinds[first_other] == "protocol", path


def test_the_docs_refusal_tables_cite_what_the_vectors_cite():
    """Every rule a vector's refusal cites is in the docs' table of refusals for its game, and a
    move after the end cites the rule the game ended by, as the table's first row says."""
    text = (ROOT / "docs" / "conformance.rst").read_text(encoding="utf-8")
    tables = {}
    for game, title in (("snap", "Snap"), ("hearts", "Hearts")):
        start = text.index(f".. list-table:: {title}\n")
        end = text.index("\n\n", text.index("   * - 1\n", start) + 1)
        end = text.find(".. list-table::", end)
        tables[game] = text[start:end if end > 0 else None]
    ended_rows = {game: table.split("   * - 2\n")[0] for game, table in tables.items()}
    seen_end = set()
    for path, document in documents():
        game = document["game"]
        start = adapter.Position.start(game, document["config"])
        for vector in document["vectors"]:
            refusals = [f["rule"] for f in vector.get("forbidden", [])]
            refusals += [vector["expect"]["illegal"]] if vector["kind"] == "illegal" else []
            for rule in refusals:
                assert rule in tables[game], (path, vector["id"], rule)
            if refusals and vector["kind"] == "illegal":
                outcome = start.apply_all(vector["moves"]).outcome()
                if outcome is not None:
                    row = ended_rows[game]
                    cited = refusals[0]
                    clause = next(part for part in row.split(";") if cited in part)
                    assert game == "hearts" or f'``{outcome["termination"]}``' in clause, (path, vector["id"], clause)
                    seen_end.add(game)
    assert seen_end == {"hearts", "snap"}


def test_the_schemas_spell_a_rule_id_as_the_rulebook_does():
    """One rule-ID pattern: ``cardcanon.spec.schema.ID_PATTERN``; every JSON Schema that holds rule
    IDs spells it the same."""
    from cardcanon.spec.schema import ID_PATTERN

    found = []
    for path in [*(ROOT / "cardcanon" / "schemas").glob("*.schema.json"), ROOT / "proofs" / "manifest" / "manifest.schema.json"]:
        text = path.read_text(encoding="utf-8")
        found += [(path.name, pattern) for pattern in re.findall(r'"pattern": "(\^\(\??:?(?:HEARTS|SNAP)[^"]*)"', text)
                  if "-P[" not in pattern]
    assert found and all(json.loads(f'"{pattern}"') == ID_PATTERN for _, pattern in found), found
