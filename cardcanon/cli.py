"""The ``cardcanon`` command line.

Every subcommand lives in the module that owns its subject and registers itself through
``add_parser(subparsers)``; the handler it sets returns the exit status. Bad input ends with
one line on standard error and a non-zero status, never a traceback.
"""

from __future__ import annotations

import argparse
import codecs
import importlib
import io
import re
import sys
import unicodedata
from typing import Any, NoReturn

from cardcanon.model.cards import Suit
from cardcanon.spec.errors import CardcanonError
from cardcanon.version import build_info

# subcommand -> module providing add_parser(subparsers)
_SUBCOMMANDS = {
    "rules": "cardcanon.spec.cli",
    "play": "cardcanon.play",
    "replay": "cardcanon.play",
    "verify": "cardcanon.verify",
    "trace": "cardcanon.trace",
    "analyze": "cardcanon.analyze",
    "conform": "cardcanon.conform.cli",
    "smt-check": "cardcanon.verify.smt_check",
}


LONGEST_WORD = 100  # a longer word in a message (a pasted value) is shortened
LONGEST_MESSAGE = 400


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        if message.startswith("unrecognized arguments: "):
            words = message.removeprefix("unrecognized arguments: ")
            message = ("unknown option " if words.startswith("-") else "unexpected argument ") + words
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see --help)\n")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        words = sys.argv[1:] if args is None else list(args)
        if self.prog == "cardcanon" and words and words[0].startswith("-") and words[0] not in _TOP_OPTIONS:
            self.error(f"unknown option {_short_word(words[0].partition('=')[0])}; a command comes first "
                       f"({', '.join(_SUBCOMMANDS)})")
        return super().parse_known_args(args, namespace)


_TOP_OPTIONS = ("-h", "--help", "--version")


def one_line(text: str) -> str:
    """``text`` as one line of bounded length: line breaks and other control characters escaped,
    each very long word (say a pasted 100 kB value) shortened."""
    flat = "".join(repr(c)[1:-1] if unicodedata.category(c)[0] in "CZ" and c != " " else c for c in text)
    flat = re.sub(r"\S{%d,}" % (LONGEST_WORD + 1), lambda m: _short_word(m.group()), flat)
    return flat if len(flat) <= LONGEST_MESSAGE else flat[: LONGEST_MESSAGE - 3] + "..."


def _short_word(word: str) -> str:
    if len(word) <= LONGEST_WORD:
        return word
    keep = (LONGEST_WORD - 30) // 2  # both ends: a long path keeps its file name
    return f"{word[:keep]}...{word[-keep:]} ({len(word):,} characters)"


# Output on a terminal that cannot show them: suit symbols become the record notation's letters
# ("K♣" -> "Kc", "10♥" -> "10h"), a few signs their ASCII spelling, anything else "?".
_ASCII = {**{suit.symbol: suit.value for suit in Suit}, "…": "...", "–": "-", "—": "-", "−": "-", "≤": "<=",
          "≥": ">=", "×": "x", "‘": "'", "’": "'", "“": '"', "”": '"', "→": "->"}
FALLBACK = "cardcanon.ascii"


def ascii_fallback(text: str) -> str:
    """``text`` in the fallback notation, for a terminal that cannot encode it."""
    return "".join(c if c.isascii() else _ASCII.get(c) or _plain(c) for c in text)


def _plain(char: str) -> str:
    return unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode() or "?"


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return ascii_fallback(error.object[error.start:error.end]), error.end


codecs.register_error(FALLBACK, _fallback)


def use_fallback_where_needed() -> None:
    """Standard output and error that cannot encode a suit symbol write the fallback notation."""
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper):
            continue  # captured (tests) or replaced by the caller
        try:
            "".join(_ASCII).encode(stream.encoding)
        except (UnicodeEncodeError, LookupError):
            stream.reconfigure(errors=FALLBACK)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command`` (a known subcommand) only the module that owns it is
    loaded, so a command does not wait for every other command's imports."""
    parser = _Parser(prog="cardcanon", description="The canonical, machine-checked rulebook of Snap and two-player Hearts.")
    parser.add_argument("--version", action="version", version=f"cardcanon {build_info().version}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    wanted = [_SUBCOMMANDS[command]] if command in _SUBCOMMANDS else _SUBCOMMANDS.values()
    for module_name in dict.fromkeys(wanted):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or not (module_name + ".").startswith(exc.name + "."):
                raise
            continue  # subcommand not built yet
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    use_fallback_where_needed()
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version or a usage error (already printed): its status
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    except (CardcanonError, OSError, ValueError) as exc:
        print(f"cardcanon: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardcanon: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
