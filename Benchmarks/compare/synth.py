#!/usr/bin/env python3
"""Answers of a given size and their Anthropic Messages SSE streams, for the comparison.

The repository's own copy of the logic of the team's SSE synthesizer (deterministic for a
seed), with a finer split: deltas of 1-6 characters cut like a tokenizer would (words with
their leading space, numbers, runs of up to 3 punctuation or code symbols, newlines,
indentation), long words cut into pieces.

  synth.py answer BYTES [--seed N] > answer.md     # markdown of about BYTES bytes
  synth.py sse FILE [--seed N] > answer.sse         # FILE's text as an Anthropic stream

Used as a module by `run`: `make_answer`, `split_deltas`, `anthropic_events`.
"""
import argparse
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "..", "..", "Tests", "StreamRenderTests", "Resources", "answers", "coding-answer.md")

# One token: a contraction; letters with an optional leading space; up to 3 digits; up to
# 3 punctuation or symbol characters (code: `->`, `::`, `{`, `**`); newlines; indentation
# (all but its last space, which leads the next token); anything else, one character.
TOKEN_RE = re.compile(
    r"'(?:s|t|re|ve|m|ll|d)\b"
    r"| ?[^\W\d_]+"
    r"| ?\d{1,3}"
    r"| ?[^\s\w]{1,3}"
    r"|\n+"
    r"|[ \t]+(?=[ \t])"
    r"|[\s\S]"
)
MAX_DELTA = 6


def split_deltas(text, rng):
    """Text → deltas of 1..6 characters, cut like a tokenizer (deterministic for rng)."""
    deltas = []
    for piece in TOKEN_RE.findall(text):
        while len(piece) > MAX_DELTA:
            n = rng.choice((3, 4, 4, 5, 5, 6))
            deltas.append(piece[:n])
            piece = piece[n:]
        if piece:
            deltas.append(piece)
    assert "".join(deltas) == text
    return deltas


def _dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def anthropic_events(deltas, rng, model="claude-3-5-haiku-20241022"):
    """The SSE events (each bytes, ending in a blank line) of an Anthropic Messages stream."""
    def event(name, payload):
        return f"event: {name}\ndata: {_dumps(payload)}\n\n".encode("utf-8")

    out = [event("message_start", {"type": "message_start", "message": {
        "id": "msg_%016x" % rng.getrandbits(64), "type": "message", "role": "assistant",
        "content": [], "model": model, "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 181, "output_tokens": 1}}}),
        event("content_block_start", {"type": "content_block_start", "index": 0,
                                      "content_block": {"type": "text", "text": ""}}),
        event("ping", {"type": "ping"})]
    for piece in deltas:
        out.append(event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                 "delta": {"type": "text_delta", "text": piece}}))
    out.append(event("content_block_stop", {"type": "content_block_stop", "index": 0}))
    out.append(event("message_delta", {"type": "message_delta",
                                       "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                       "usage": {"output_tokens": len(deltas)}}))
    out.append(event("message_stop", {"type": "message_stop"}))
    return out


# --- answers of a given size -------------------------------------------------------------

TOPICS = ["retries and backoff", "cancellation", "rate limits", "tool calls", "long answers",
          "testing the parser", "logging", "timeouts", "a second provider", "caching",
          "metrics", "shutdown"]
SENTENCES = [
    "The parser keeps a partial line until its newline arrives, and only then decodes the event.",
    "That keeps the work per delta small, even when the answer grows long.",
    "A retry must not replay text that was already shown, so the client remembers how many characters it printed.",
    "When the same message is sent again, those characters are skipped instead of drawn twice.",
    "Backpressure matters too: a slow terminal can make the reader fall behind the network.",
    "The buffer between them should stay bounded, or a long answer will eat memory for no reason.",
    "If the server answers with `overloaded_error`, wait and try again with a growing delay.",
    "A `rate_limit_error` carries a `retry-after` header; honour it rather than guessing.",
    "Cancellation should close the connection at once, so the model stops generating tokens you pay for.",
    "Log the request id of every failed call, because support will ask for it first.",
    "Timeouts need two numbers: one for the first byte and one for the gap between events.",
    "A stream that ends without `message_stop` was cut off, and the answer should say so.",
    "Tool calls arrive as `input_json_delta` pieces that only parse once the block is complete.",
    "Keep the raw events in a ring buffer while debugging; they make most bugs obvious.",
    "Measure the time to first token separately from the total time, since users notice it most.",
    "Never parse markdown on the network thread; hand the text to the renderer instead.",
    "Caching the system prompt cuts both the latency and the cost of the first token.",
    "A test that replays a recorded stream at full speed catches most ordering bugs.",
    "Unicode does not care where the deltas are cut, so decode bytes only at character boundaries.",
    "When the terminal is resized, redraw the unfinished tail and leave the scrollback alone.",
]
NOTES = ("backoff", "server overloaded", "rate limited, honour retry-after", "ok", "first token 310 ms",
         "cancelled by the user", "timeout between events")
EMPH = ("retry", "stream", "delta", "buffer", "terminal", "answer", "event", "client")
LANGS = {
    "go": """package main

import (
\t"bufio"
\t"fmt"
\t"os"
\t"strings"
)

func main() {
\tscanner := bufio.NewScanner(os.Stdin)
\tfor scanner.Scan() {
\t\tline := scanner.Text()
\t\tif strings.HasPrefix(line, "data: ") {
\t\t\tfmt.Println(line[6:]) // payload #{k}
\t\t}
\t}
}""",
    "yaml": """retry:
  attempts: {k3}
  backoff_ms: [100, 200, 400]
  on: ["overloaded_error", "rate_limit_error"]
stream:
  idle_timeout_s: 30   # part {k}""",
    "c": """#include <stdio.h>
#include <string.h>

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (strncmp(line, "data: ", 6) == 0 && line[6] != '\\0') {
            fputs(line + 6, stdout);  /* part {k} */
        }
    }
    return 0;
}""",
    "sql": """SELECT model, COUNT(*) AS answers, AVG(output_tokens) AS mean_tokens
FROM messages
WHERE stop_reason = 'end_turn' AND created_at > NOW() - INTERVAL '{k} days'
GROUP BY model
ORDER BY answers DESC;""",
}


def _sentence(rng, lo=0, hi=0):
    text = rng.choice(SENTENCES)
    word = rng.choice(EMPH)
    if rng.random() < 0.3 and (" " + word + " ") in text:
        text = text.replace(" " + word + " ", " **" + word + "** ", 1)
    elif rng.random() < 0.2 and (" " + word + " ") in text:
        text = text.replace(" " + word + " ", " *" + word + "* ", 1)
    return text


def _item(rng):
    return _sentence(rng).rstrip(".")


def _paragraph(rng):
    return " ".join(_sentence(rng) for _ in range(rng.randint(2, 5)))


def _wrap(text, width=88):
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = word if not line else line + " " + word
    lines.append(line)
    return "\n".join(lines)


def _part(base_sections, k, rng):
    """Part k: the base answer's sections rotated and renumbered, plus new prose, a list,
    a table and a code fence in another language."""
    topic = TOPICS[k % len(TOPICS)]
    out = [f"# Part {k}: {topic}", "", _wrap(_paragraph(rng)), ""]
    n = len(base_sections)
    for j in range(n):
        section = base_sections[(j + k) % n]
        # Renumber "## 2. Parse ..." headings and vary a few literals so parts differ.
        section = re.sub(r"^## \d+\.", lambda m: f"## {k}.{j + 1}", section, flags=re.M)
        section = section.replace("~300 ms", f"~{200 + 7 * (k % 40)} ms").replace("count\": 42", f"count\": {k}")
        out.append(section.rstrip("\n"))
        out.append("")
        if j == 1:
            out += [_wrap(_paragraph(rng)), ""]
            out += [f"{i}. {_item(rng)}" for i in range(1, rng.randint(3, 6))]
            out.append("")
            out += ["- " + _item(rng) for _ in range(rng.randint(2, 4))]
            out.append("")
        if j == 2:
            out += ["| Attempt | Delay | Status | Note |", "|---:|---:|:---:|---|"]
            for a in range(1, rng.randint(4, 7)):
                out.append(f"| {a} | {100 * 2 ** (a - 1)} ms | {rng.choice(('529', '429', '200', '500'))} | "
                           f"{rng.choice(NOTES)} |")
            out.append("")
            lang = sorted(LANGS)[k % len(LANGS)]
            code = LANGS[lang].replace("{k}", str(k)).replace("{k3}", str(3 + k % 4))
            out += [f"```{lang}", code, "```", ""]
    out += [_wrap(_paragraph(rng)), ""]
    return "\n".join(out)


def make_answer(size, seed=1):
    """Markdown of about `size` UTF-8 bytes: the base coding answer, then varied parts."""
    base = open(BASE, encoding="utf-8").read()
    if size <= len(base.encode("utf-8")) * 1.5:
        return base
    rng = random.Random(seed)
    # Sections: the intro, then each "## " section (fences never start with "## ").
    pieces = re.split(r"\n(?=## )", base)
    intro, sections = pieces[0], pieces[1:]
    parts = [base.rstrip("\n"), ""]
    total = len(base.encode("utf-8"))
    k = 1
    while total < size:
        part = _part(sections, k, rng)
        parts.append(part)
        total += len(part.encode("utf-8")) + 1
        k += 1
    text = "\n".join(parts)
    return text.rstrip("\n") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("answer")
    a.add_argument("bytes", type=int)
    a.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("sse")
    s.add_argument("file")
    s.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.cmd == "answer":
        sys.stdout.write(make_answer(args.bytes, args.seed))
    else:
        text = (sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")).read()
        rng = random.Random(args.seed)
        out = sys.stdout.buffer
        for e in anthropic_events(split_deltas(text, rng), rng):
            out.write(e)


if __name__ == "__main__":
    main()
