"""SVG pictures of cards, piles and the Snap Pot (no dependencies beyond the model)."""

from __future__ import annotations

import html

from cardcanon.model.cards import Card, Suit
from cardcanon.model.seats import Seat

CARD_W, CARD_H, FAN = 44, 62, 30
RED = {Suit.HEARTS, Suit.DIAMONDS}


def card(c: Card, x: float, y: float) -> str:
    colour = "#c0141c" if c.suit in RED else "#111"
    label = html.escape(c.pretty)
    return (f'<g><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#fff" stroke="#555"/>'
            f'<text x="{x + 4}" y="{y + 16}" font-size="13" fill="{colour}" font-family="DejaVu Sans">{label}</text>'
            f'<text x="{x + CARD_W / 2}" y="{y + 46}" font-size="22" text-anchor="middle" fill="{colour}" '
            f'font-family="DejaVu Sans">{c.suit.symbol}</text></g>')


def back(x: float, y: float, count: int) -> str:
    if count == 0:
        return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="none" '
                f'stroke="#999" stroke-dasharray="4 3"/>')
    return (f'<g><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#2d4f8a" stroke="#1b2f55"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + 38}" font-size="15" text-anchor="middle" fill="#fff" '
            f'font-family="DejaVu Sans">{count}</text></g>')


def fan(cards, x: float, y: float, limit: int = 6) -> tuple[str, float]:
    """Cards overlapped left to right, the first card (a pile's top) drawn last, rightmost."""
    shown = list(cards[:limit])[::-1]
    parts = []
    if len(cards) > limit:
        parts.append(text(x, y + CARD_H / 2 + 4, f"+{len(cards) - limit} more", size=12))
        x += 52
    for i, c in enumerate(shown):
        parts.append(card(c, x + i * FAN, y))
    width = (len(shown) - 1) * FAN + CARD_W if shown else CARD_W
    if not shown:
        parts.append(back(x, y, 0))
    return "".join(parts), x + width


def text(x: float, y: float, s: str, size: int = 13, anchor: str = "start", weight: str = "normal") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'font-family="DejaVu Sans">{html.escape(s)}</text>')


def svg(width: float, height: float, body: str, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img"><title>{html.escape(title)}</title>'
            f'<rect width="100%" height="100%" fill="#f4f7f1"/>{body}</svg>')


def snap_table(down, up, pot, title: str, note: str = "", marks: dict | None = None,
               show_down: bool = False, captioned: bool = False) -> str:
    """Every seat's face-down pile (a back with its count) and face-up pile (top at the
    right), and the Snap Pot below; ``show_down`` also lists each face-down pile, top first.
    ``captioned``: the title and note are in the page's text above the picture, not drawn."""
    marks = marks or {}
    rows, y = ([], 12) if captioned else ([text(12, 22, title, size=15, weight="bold")], 36)
    width = 300 if captioned else max(520, 24 + 9 * len(title))
    for seat, (d, u) in enumerate(zip(down, up)):
        label = str(Seat(seat))
        rows.append(text(12, y + CARD_H / 2 - 4, label, weight="bold"))
        if seat in marks:
            rows.append(text(12, y + CARD_H / 2 + 14, marks[seat], size=11))
        rows.append(back(110, y, len(d)))
        rows.append(text(110, y + CARD_H + 13, "face down", size=10))
        body, right = fan(u, 180, y)
        rows.append(body)
        rows.append(text(180, y + CARD_H + 13, f"face up ({len(u)})", size=10))
        width = max(width, right + 20)
        y += CARD_H + 26
        if show_down and d:
            listing = "face down, top first: " + " ".join(c.pretty for c in d)
            rows.append(text(110, y + 2, listing, size=11))
            width = max(width, 120 + 7 * len(listing))
            y += 18
    rows.append(text(12, y + CARD_H / 2 + 4, "Snap Pot", weight="bold"))
    body, right = fan(pot, 180, y, limit=10)
    rows.append(body)
    rows.append(text(180, y + CARD_H + 13, f"{len(pot)} cards, top at the right", size=10))
    width = max(width, right + 20)
    y += CARD_H + 26
    if note and not captioned:
        rows.append(text(12, y + 8, note, size=12))
        y += 20
    return svg(width, y + 6, "".join(rows), title)


def hearts_hands(rows_data, title: str, captioned: bool = False) -> str:
    """One row per hand: the running scores first (what the picture is about, in view on a
    phone), then the dead cards and the point cards each player took."""
    rows, y = ([], 24) if captioned else ([text(12, 22, title, size=15, weight="bold")], 40)
    width = 300
    for label, dead, took0, took1, scores in rows_data:
        rows.append(text(12, y + CARD_H / 2 - 6, label, weight="bold"))
        rows.append(text(12, y + CARD_H / 2 + 14, scores, weight="bold", size=15))
        rows.append(text(130, y - 4, "dead", size=10))
        body, x = fan(dead, 130, y)
        rows.append(body)
        rows.append(text(x + 20, y - 4, "player 1 took", size=10))
        body, x = fan(took0, x + 20, y, limit=8)
        rows.append(body)
        rows.append(text(x + 20, y - 4, "player 2 took", size=10))
        body, x = fan(took1, x + 20, y, limit=8)
        rows.append(body)
        width = max(width, x + 20)
        y += CARD_H + 28
    return svg(width, y, "".join(rows), title)
