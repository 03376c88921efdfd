#!/usr/bin/env python3
"""Inputs for the performance-cliff measurements (issue 14): one file per input class,
as plain text and as an Anthropic SSE stream of small deltas.

  generate.py DIR [--mb 1] [--delta 4] [--no-sse] [--only CLASS,...]

writes DIR/CLASS.txt and DIR/CLASS.sse for each class. Deterministic (fixed seeds).
Each class is about 1 MiB of text (the long line 10 MiB):

  prose      the coding answer fixture repeated (the yardstick)
  hex        one line of hex digits: no line-break opportunity at all
  base64     one line of base64 (opportunities only after '/')
  word       one endless word of letters
  cjk        Chinese without spaces, one line (an opportunity between most characters)
  emoji      a run of emoji: presentation, skin tones, ZWJ families, flags, keycaps
  combining  zalgo words: letters carrying 0-200 combining marks (past the 256-byte cluster cap)
  endless-combining  one letter followed by combining marks only
  endless-bidi  "$(", then bidi marks and isolates only (some carrying a mark), then a number
  tiny       thousands of tiny paragraphs ("Yes.", blank line, "Sure thing.", ...)
  long-line  the prose with its line ends made spaces: one 10 MiB line (a paragraph)
  long-heading  the same as a heading ("# " first): one 1 MiB line no paragraph rule splits

The SSE is the text cut into deltas of `--delta` bytes (at scalar boundaries), one
content_block_delta event each, between the usual start and stop events.
"""
import argparse
import base64
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "Tests", "StreamRenderTests", "Resources", "answers", "coding-answer.md")
MIB = 1 << 20


def repeat_to(unit, size):
    return unit * (size // len(unit.encode()) + 1)


def prose(size, rng):
    with open(FIXTURE, encoding="utf-8") as f:
        return repeat_to(f.read(), size)


def hex_text(size, rng):
    return rng.randbytes(size // 2).hex() + "\n"


def base64_text(size, rng):
    return base64.b64encode(rng.randbytes(size * 3 // 4)).decode() + "\n"


def word(size, rng):
    letters = "abcdefghijklmnopqrstuvwxyz"
    return "".join(rng.choice(letters) for _ in range(size)) + "\n"


CJK = ("流式渲染把模型的回答一块一块地显示在终端里，每一块的代价应当与它的长度成正比。"
       "中文没有空格，几乎每两个字之间都可以换行，但标点符号前面不能断开。"
       "日本語の文章も同じで、句読点の前では改行しない。한국어도여기서는붙여썼다。")


def cjk(size, rng):
    return repeat_to(CJK, size)[: size // 3] + "\n"


EMOJI = ["😀", "🎉", "🚀", "👍🏽", "👩‍👩‍👧‍👦", "🇫🇷", "🇯🇵", "1️⃣", "❤️", "🧑🏿‍💻", "🏳️‍🌈", "🐈‍⬛", "✨", "🔥"]


def emoji(size, rng):
    out, n = [], 0
    while n < size:
        e = rng.choice(EMOJI)
        out.append(e)
        n += len(e.encode())
    return "".join(out) + "\n"


def marks(rng, count):
    return "".join(chr(0x300 + rng.randrange(0x70)) for _ in range(count))


def combining(size, rng):
    out, n = [], 0
    while n < size:
        w = "".join(rng.choice("zalgohecomes") + marks(rng, rng.randint(0, 200)) for _ in range(rng.randint(2, 7)))
        out.append(w)
        n += len(w.encode()) + 1
    return " ".join(out) + "\n"


def endless_combining(size, rng):
    return "e" + marks(rng, size // 2) + "\n"


BIDI = ["\u200e", "\u200f", "\u2066", "\u2069", "\u061c", "\u200e\u0301", "\u200f\u035c"]


def endless_bidi(size, rng):
    # The line-break rules read through the whole run (LB9) to the number after it (LB25).
    out, n = ["$("], 2
    while n < size:
        m = rng.choice(BIDI)
        out.append(m)
        n += len(m.encode())
    return "".join(out) + "12\n"


TINY = ["Yes.", "No.", "Sure thing.", "Done!", "OK", "Why?", "See above.", "Thanks, that works.", "1", "-"]


def tiny(size, rng):
    out, n = [], 0
    while n < size:
        p = rng.choice(TINY)
        out.append(p)
        n += len(p) + 2
    return "\n\n".join(out) + "\n"


def long_line(size, rng):
    # The prose with its line ends made spaces, starting as a paragraph (the
    # fixture's first line is a heading: a 10 MB heading is the next class).
    with open(FIXTURE, encoding="utf-8") as f:
        unit = " ".join(f.read().split("\n"))
    return repeat_to("The answer on one line: " + unit, size) + "\n"


def long_heading(size, rng):
    # A line no paragraph rule splits: only the 16 KB forced split bounds it.
    return "# " + long_line(size, rng)


CLASSES = {
    "prose": (prose, 1), "hex": (hex_text, 1), "base64": (base64_text, 1), "word": (word, 1),
    "cjk": (cjk, 1), "emoji": (emoji, 1), "combining": (combining, 1),
    "endless-combining": (endless_combining, 1), "endless-bidi": (endless_bidi, 1), "tiny": (tiny, 1), "long-line": (long_line, 10),
    "long-heading": (long_heading, 1),
}


def deltas(text, size):
    """Pieces of at least `size` UTF-8 bytes (fewer at the end), cut between scalars."""
    out, piece, n = [], [], 0
    for ch in text:
        piece.append(ch)
        n += len(ch.encode())
        if n >= size:
            out.append("".join(piece))
            piece, n = [], 0
    if piece:
        out.append("".join(piece))
    return out


def sse(text, size):
    def event(name, payload):
        return "event: %s\ndata: %s\n\n" % (name, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))

    yield event("message_start", {"type": "message_start", "message": {
        "id": "msg_cliffs", "type": "message", "role": "assistant", "content": [],
        "model": "claude-cliffs", "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})
    yield event("content_block_start", {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "text", "text": ""}})
    for piece in deltas(text, size):
        yield event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "text_delta", "text": piece}})
    yield event("content_block_stop", {"type": "content_block_stop", "index": 0})
    yield event("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn",
                                  "stop_sequence": None}, "usage": {"output_tokens": 1}})
    yield event("message_stop", {"type": "message_stop"})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--mb", type=float, default=1, help="size of a class in MiB (the long line: 10 times that)")
    ap.add_argument("--delta", type=int, default=4, help="bytes per SSE delta")
    ap.add_argument("--no-sse", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated classes")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    only = [c for c in args.only.split(",") if c]
    for name, (make, scale) in CLASSES.items():
        if only and name not in only:
            continue
        text = make(int(args.mb * MIB * scale), random.Random(14))
        with open(os.path.join(args.dir, name + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
        if not args.no_sse:
            with open(os.path.join(args.dir, name + ".sse"), "w", encoding="utf-8") as f:
                for e in sse(text, args.delta):
                    f.write(e)


if __name__ == "__main__":
    main()
