"""Building and loading the compiled kernel: a failure is remembered with one warning, the compiler
is timed out, the cache must be the user's own, and every ctypes call is declared and checked."""

from __future__ import annotations

import ctypes
import os
import re
import stat
import sys

import pytest

from cardcanon.engine import abi, build
from cardcanon.engine import snap as engine_snap
from cardcanon.model.snap import SnapConfig

needs_compiler = pytest.mark.skipif(build.compiler() is None or not hasattr(os, "getuid"),
                                    reason="needs a C compiler and POSIX permissions")


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A process state with no kernel loaded, no packaged library and a private cache in tmp_path."""
    monkeypatch.setenv("CARDCANON_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDCANON_ENGINE", raising=False)
    monkeypatch.setattr(build, "packaged", lambda: None)
    build.forget()
    yield tmp_path
    build.forget()


def _fake_compiler(folder, body: str) -> str:
    path = folder / "fake-cc"
    path.write_text(f"#!/bin/sh\necho run >> {folder / 'runs'}\n{body}\n")
    path.chmod(0o755)
    return str(path)


@needs_compiler
def test_a_failing_compiler_runs_once_and_is_reported_by_every_call(fresh, monkeypatch, capsys):
    monkeypatch.setenv("CC", _fake_compiler(fresh, "echo 'kernel.c:1: error: broken' >&2; exit 1"))
    config = SnapConfig(players=2)
    for _ in range(2):
        with pytest.raises(build.EngineUnavailable) as refused:
            engine_snap.batch(config, "flipper-first", 0, 50)
        assert str(refused.value).startswith("the compiled kernel is not built: compiling kernel.c with ")
        assert str(refused.value).endswith("failed: kernel.c:1: error: broken")
    fallback = engine_snap.batch(config, "flipper-first", 0, 50, fallback=True)
    again = [engine_snap.decide(config, seed, "flipper-first", fallback=True) for seed in range(3)]
    assert (fresh / "runs").read_text().count("run") == 1
    assert capsys.readouterr().err == ""  # the exception says it; the results record it
    assert str(fallback.played_by) == f"reference model ({refused.value})"
    assert len(fallback) == 50 and [r.flips for r in again] == [fallback.run(config, k).flips for k in range(3)]


@needs_compiler
def test_the_compiler_is_timed_out(fresh, monkeypatch, capsys):
    monkeypatch.setenv("CC", _fake_compiler(fresh, "sleep 30"))
    monkeypatch.setattr(build, "COMPILE_TIMEOUT", 0.5)
    with pytest.raises(build.EngineUnavailable, match=r"took more than 0.5 s"):
        build.load()
    assert not list((fresh / "cache" / "engine").glob("*"))  # no half-written file left


@needs_compiler
def test_the_cache_folder_and_library_must_be_private(fresh, capsys):
    path = build.build()
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.chmod(0o666)
    with pytest.raises(build.EngineUnavailable, match="writable by other users"):
        build.load()
    build.forget()
    path.chmod(0o644)
    path.parent.chmod(0o777)
    with pytest.raises(build.EngineUnavailable, match="writable by other users"):
        build.load()
    build.forget()
    path.parent.chmod(0o700)
    path.unlink()
    path.symlink_to(sys.executable)
    with pytest.raises(build.EngineUnavailable, match="expects a regular file"):
        build.load()


@needs_compiler
def test_a_library_of_another_kernel_source_is_not_used(fresh, monkeypatch, capsys):
    path = build.build()
    monkeypatch.setattr(build, "source_sha256", lambda: "0" * 64)
    with pytest.raises(build.EngineUnavailable, match="another version of kernel.c"):
        build._open(path)


@pytest.mark.parametrize("library", ["kernel", "vector"])
def test_every_kernel_function_python_calls_is_declared(library):
    """kernel.c's entry points are declared in abi.py; vector.c (kernel.c and the batched Snap) adds its own,
    and the SHA-256 of its source."""
    from cardcanon.engine import vector

    pattern = r"^(?:int|i64|const char \*)\s*(\w+_checked|\w+_game_size|\w+_slot_size|cardcanon_\w+_source)\("
    exported = set(re.findall(pattern, build.SOURCE.read_text(encoding="utf-8"), re.M))
    if library == "kernel":
        declared, code = abi.SIGNATURES, [p for p in build.SOURCE.parent.glob("*.py") if p.name != "vector.py"]
    else:
        exported |= set(re.findall(pattern, vector.SOURCE.read_text(encoding="utf-8"), re.M))
        declared, code = {**abi.SIGNATURES, **vector.SIGNATURES}, [build.SOURCE.with_name("vector.py")]
    assert exported == set(declared)
    called = set(re.findall(r"\blib\.(\w+)\(", "".join(p.read_text(encoding="utf-8") for p in code)))
    assert called and called <= set(abi.SIGNATURES if library == "kernel" else vector.SIGNATURES)


@pytest.mark.needs_kernel
def test_short_buffers_and_stale_structs_are_refused_by_the_kernel():
    lib = build.load()
    for name, (restype, argtypes) in abi.SIGNATURES.items():
        assert getattr(lib, name).argtypes == argtypes and getattr(lib, name).restype == restype
    cfg = engine_snap._cfg(SnapConfig(players=2), engine_snap._policy("flipper-first"))
    out = (ctypes.c_int64 * 15)()  # room for one deal, not two
    size = ctypes.sizeof(cfg)
    with pytest.raises(abi.EngineError, match="buffer too short"):
        abi.check(lib.snap_batch_checked(ctypes.byref(cfg), size, 0, 2, 1000, out, len(out)), "test")
    with pytest.raises(abi.EngineError, match="struct sizes differ"):
        abi.check(lib.snap_batch_checked(ctypes.byref(cfg), size - 8, 0, 1, 1000, out, len(out)), "test")
    cfg.players = 13
    with pytest.raises(abi.EngineError, match="cannot play"):
        abi.check(lib.snap_batch_checked(ctypes.byref(cfg), size, 0, 1, 1000, out, len(out)), "test")
    with pytest.raises(ctypes.ArgumentError):
        lib.snap_batch_checked(ctypes.byref(cfg), size, 0, 1, 1000, (ctypes.c_int32 * 16)(), 16)


@needs_compiler
@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="only root can give a file away")
def test_a_library_owned_by_another_user_is_refused(fresh, capsys):
    path = build.build()
    os.chown(path, 65534, -1)
    with pytest.raises(build.EngineUnavailable, match="owned by another user"):
        build.load()


@pytest.mark.needs_kernel
def test_the_step_entry_points_refuse_short_buffers_and_wrong_games():
    from cardcanon.engine.steps import HeartsSteps, SnapSteps
    from cardcanon.model.hearts import HeartsConfig
    from cardcanon.model.snap_policies import parse_policy

    hearts = HeartsSteps(HeartsConfig())
    lib, cfg, size = hearts.lib, hearts.cfg_ref, hearts.cfg_size
    with pytest.raises(abi.EngineError, match="struct sizes differ"):
        abi.check(lib.hearts_game_reset_checked(cfg, size, hearts.game, hearts.size - 1, 0), "test")
    hearts.reset(0)
    with pytest.raises(abi.EngineError, match="buffer too short"):
        abi.check(lib.hearts_game_observe_checked(cfg, size, hearts.game, hearts.size, 0, hearts._obs, 10, None, 0,
                                                  None, 0), "test")
    with pytest.raises(abi.EngineError, match="buffer too short"):
        abi.check(lib.hearts_vec_reset_checked(cfg, size, hearts.game, hearts.size, 2, 0, None, None, None, None, 2),
                  "test")
    snap = SnapSteps(SnapConfig(players=3), parse_policy("flipper-first"))
    snap.reset(1)
    with pytest.raises(abi.EngineError, match="cannot play"):
        snap.settle({})  # no card flipped yet
    snap.flip()
    with pytest.raises(abi.EngineError, match="cannot play"):
        snap.flip()  # the call window is open
