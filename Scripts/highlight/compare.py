#!/usr/bin/env python3
"""Compares StreamRender's highlighter with Pygments on the test corpora.

For each language, the corpus Tests/StreamRenderTests/Resources/highlight/<name>.corpus
is lexed by `stream-render tokens` (or the standalone binary build-tokens makes) and by
Pygments; Pygments' token classes are mapped onto StreamRender's kinds (MAPPING below);
the agreement is the share of non-whitespace characters given the same kind.

  compare.py --binary PATH [--languages a,b] [--detail LANG] [--record] [--minimum 90]

--record writes <name>.pygments beside each corpus (Pygments' tokens in our kinds, as
`start end kind` lines): the unit tests check the agreement against those files, so
the quality bar holds in CI without Python.
"""
import argparse
import collections
import os
import subprocess
import sys

import pygments
from pygments.lexers import get_lexer_by_name
from pygments.token import Token

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "Tests", "StreamRenderTests", "Resources", "highlight")

# Our language name -> (Pygments lexer name, options).
PYGMENTS = {
    "swift": ("swift", {}), "python": ("python", {}), "javascript": ("javascript", {}),
    "typescript": ("typescript", {}), "json": ("json", {}), "bash": ("bash", {}),
    "console": ("console", {}), "rust": ("rust", {}), "go": ("go", {}), "c": ("c", {}),
    "cpp": ("cpp", {}), "java": ("java", {}), "kotlin": ("kotlin", {}), "csharp": ("csharp", {}),
    "ruby": ("ruby", {}), "php": ("php", {"startinline": True}), "sql": ("sql", {}),
    "yaml": ("yaml", {}), "toml": ("toml", {}), "html": ("html", {}), "xml": ("xml", {}),
    "css": ("css", {}), "diff": ("diff", {}), "dockerfile": ("docker", {}),
    "makefile": ("make", {}), "markdown": ("markdown", {}),
}

# Pygments token class -> our kind; the most specific class listed wins.
MAPPING = [
    (Token.Keyword.Constant, "constant"),
    (Token.Keyword.Type, "type"),
    (Token.Keyword, "keyword"),
    (Token.Name.Builtin.Pseudo, "keyword"),
    (Token.Name.Builtin, "builtin"),
    (Token.Name.Function, "function"),
    (Token.Name.Class, "type"),
    (Token.Name.Exception, "type"),
    (Token.Name.Decorator, "attribute"),
    (Token.Name.Attribute, "attribute"),
    (Token.Name.Tag, "tag"),
    (Token.Name.Variable, "variable"),
    (Token.Name.Constant, "constant"),
    (Token.Name.Entity, "constant"),
    (Token.Name.Property, "variable"),
    (Token.Name, "plain"),
    (Token.Literal.String.Escape, "string-escape"),
    (Token.Literal.String.Interpol, "string-escape"),
    (Token.Literal.String, "string"),
    (Token.Literal.Number, "number"),
    (Token.Literal.Date, "number"),
    (Token.Literal, "string"),
    (Token.Comment.PreprocFile, "string"),
    (Token.Comment.Preproc, "attribute"),
    (Token.Comment, "comment"),
    (Token.Operator.Word, "keyword"),
    (Token.Operator, "operator"),
    (Token.Punctuation, "punctuation"),
    (Token.Generic.Inserted, "inserted"),
    (Token.Generic.Deleted, "deleted"),
    (Token.Generic.Heading, "heading"),
    (Token.Generic.Subheading, "heading"),
    (Token.Generic.Prompt, "prompt"),
    (Token.Generic.Emph, "emphasis"),
    (Token.Generic.Strong, "strong"),
    (Token.Generic, "plain"),
    (Token, "plain"),
]


def kind_of(ttype):
    for cls, kind in MAPPING:
        if ttype in cls:
            return kind
    return "plain"


def pygments_tokens(name, text):
    lexer_name, options = PYGMENTS[name]
    lexer = get_lexer_by_name(lexer_name, stripnl=False, ensurenl=False, stripall=False, **options)
    tokens = []  # (start byte, end byte, kind), merged
    byte = 0
    for _, ttype, value in lexer.get_tokens_unprocessed(text):
        n = len(value.encode("utf-8"))
        kind = kind_of(ttype)
        if value.strip() == "":
            byte += n
            continue
        if tokens and tokens[-1][2] == kind and tokens[-1][1] == byte:
            tokens[-1] = (tokens[-1][0], byte + n, kind)
        else:
            tokens.append((byte, byte + n, kind))
        byte += n
    return tokens


def our_tokens(binary, name, path):
    out = subprocess.run([binary, "tokens", "--language", name, path], check=True, capture_output=True).stdout
    tokens = []
    for line in out.decode().splitlines():
        s, e, k = line.split()
        tokens.append((int(s), int(e), k))
    return tokens


def per_byte(tokens, size):
    kinds = ["plain"] * size
    for s, e, k in tokens:
        for i in range(s, min(e, size)):
            kinds[i] = k
    return kinds


def compare(text, ours, theirs):
    """(agreeing, compared, confusion counter, mismatch examples)."""
    data = text.encode("utf-8")
    a, b = per_byte(ours, len(data)), per_byte(theirs, len(data))
    agree = total = 0
    confusion = collections.Counter()
    examples = collections.defaultdict(list)
    byte = 0
    line_no = 1
    for ch in text:
        if ch == "\n":
            line_no += 1
        if not ch.isspace():
            total += 1
            if a[byte] == b[byte]:
                agree += 1
            else:
                key = (b[byte], a[byte])
                confusion[key] += 1
                if len(examples[key]) < 6 and (not examples[key] or examples[key][-1][0] != line_no):
                    examples[key].append((line_no, ch))
        byte += len(ch.encode("utf-8"))
    return agree, total, confusion, examples


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "stream-render"))
    parser.add_argument("--languages", default="")
    parser.add_argument("--detail", default="", help="print the disagreements of this language")
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--minimum", type=float, default=90.0)
    args = parser.parse_args()
    names = [n for n in args.languages.split(",") if n] or list(PYGMENTS)
    print(f"Pygments {pygments.__version__}; agreement on non-whitespace characters\n")
    print("| language | lines | characters | agreement |")
    print("|---|---:|---:|---:|")
    failed = []
    for name in names:
        path = os.path.join(CORPUS, name + ".corpus")
        if not os.path.exists(path):
            print(f"| {name} | – | – | no corpus |")
            failed.append(name)
            continue
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        theirs = pygments_tokens(name, text)
        if args.record:
            with open(os.path.join(CORPUS, name + ".pygments"), "w") as f:
                for s, e, k in theirs:
                    f.write(f"{s} {e} {k}\n")
        ours = our_tokens(args.binary, name, path)
        agree, total, confusion, examples = compare(text, ours, theirs)
        pct = 100.0 * agree / max(1, total)
        if pct < args.minimum:
            failed.append(name)
        print(f"| {name} | {text.count(chr(10))} | {total} | {pct:.1f}% |")
        if name == args.detail:
            lines = text.split("\n")
            print(f"\n{name}: disagreements (Pygments -> ours), most frequent first")
            for (p, o), n in confusion.most_common(25):
                print(f"  {n:5d}  pygments {p:14s} ours {o}")
                for line_no, ch in examples[(p, o)]:
                    print(f"           line {line_no}: {lines[line_no - 1].strip()[:100]!r} (at {ch!r})")
            print()
    if failed:
        print(f"\nbelow {args.minimum}%: {', '.join(failed)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
