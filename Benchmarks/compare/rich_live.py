#!/usr/bin/env python3
"""Rich's common recipe for a streaming answer: Live + Markdown, refreshed per delta.

Reads standard input and writes the live view to standard output, as on an 80x24
truecolor terminal:

  --input sse   (the default) an Anthropic Messages stream, as an app using the SDK
                sees it: every text_delta is one update + refresh, however fast the
                deltas come (`for text in stream.text_stream: ...`).
  --input text  markdown text; one update + refresh per read(2). A pipe merges writes
                that the reader has not taken yet, so when Rich is slower than its
                input it refreshes less often than once per delta.
"""
import argparse
import codecs
import json
import os
import sys

from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown


def reads(fd):
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        yield chunk


def text_deltas_from_sse(fd):
    """The text of every text_delta event, in order (events end with a blank line)."""
    buffer = b""
    for chunk in reads(fd):
        buffer += chunk.replace(b"\r\n", b"\n")
        *events, buffer = buffer.split(b"\n\n")
        for event in events:
            for line in event.split(b"\n"):
                if line.startswith(b"data:"):
                    payload = json.loads(line[5:])
                    delta = payload.get("delta") or {}
                    if payload.get("type") == "content_block_delta" and delta.get("type") == "text_delta":
                        yield delta["text"]


def text_reads(fd):
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for chunk in reads(fd):
        text = decoder.decode(chunk)
        if text:
            yield text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", choices=("sse", "text"), default="sse")
    ap.add_argument("--width", type=int, default=80)
    ap.add_argument("--height", type=int, default=24)
    args = ap.parse_args()
    deltas = text_deltas_from_sse(0) if args.input == "sse" else text_reads(0)
    console = Console(force_terminal=True, width=args.width, height=args.height, color_system="truecolor")
    text = ""
    with Live(console=console, auto_refresh=False) as live:
        for delta in deltas:
            text += delta
            live.update(Markdown(text))
            live.refresh()


if __name__ == "__main__":
    main()
