#!/usr/bin/env python3
"""Times `stream-render` on the inputs of generate.py, per input class and mode, as CPU
seconds (user + system) of the whole process, median of --runs; prints a markdown table
of each class's cost per text byte as a multiple of prose's in the same mode.

  measure.py BINARY DIR [--runs 3] [--modes text-plain,...] [--classes hex,...] [--timeout 600]

Modes (output to /dev/null, width 80):
  text-plain  --format text --markdown off FILE.txt     plain output, markdown off
  text-md     --format text FILE.txt                    plain output, markdown on (the default)
  text-live   --format text --output ansi --pace off --height 24 FILE.txt   the live (inline) view
  sse-plain / sse-md / sse-live   the same on FILE.sse: an Anthropic stream of 4-byte deltas
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

MODES = {
    "text-plain": ("txt", ["--format", "text", "--markdown", "off"]),
    "text-md": ("txt", ["--format", "text"]),
    "text-live": ("txt", ["--format", "text", "--output", "ansi", "--pace", "off", "--height", "24"]),
    "sse-plain": ("sse", ["--markdown", "off"]),
    "sse-md": ("sse", []),
    "sse-live": ("sse", ["--output", "ansi", "--pace", "off", "--height", "24"]),
}
CLASSES = ["prose", "hex", "base64", "word", "cjk", "emoji", "combining", "endless-combining", "endless-bidi", "tiny", "long-line", "long-heading"]


def cpu_seconds(argv, timeout):
    """CPU seconds of one run, or None when it ran past `timeout` (killed)."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=null)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return None
            time.sleep(0.01)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s exited %d" % (" ".join(argv), os.waitstatus_to_exitcode(status)))
    return usage.ru_utime + usage.ru_stime


def text_bytes(directory, name):
    return os.path.getsize(os.path.join(directory, name + ".txt"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("dir")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--classes", default=",".join(CLASSES))
    ap.add_argument("--timeout", type=float, default=600, help="seconds for one run before it is killed")
    args = ap.parse_args()
    modes = args.modes.split(",")
    classes = args.classes.split(",")
    if "prose" not in classes:
        classes.insert(0, "prose")
    seconds = {}
    for name in classes:
        for mode in modes:
            ext, flags = MODES[mode]
            argv = [args.binary, "--width", "80"] + flags + [os.path.join(args.dir, name + "." + ext)]
            runs = []
            for _ in range(args.runs):
                t = cpu_seconds(argv, args.timeout)
                if t is None:
                    runs = None
                    break
                runs.append(t)
            seconds[name, mode] = statistics.median(runs) if runs else None
            shown = "%.3f s" % seconds[name, mode] if runs else "> %.0f s (killed)" % args.timeout
            print("%-18s %-10s %s %s" % (name, mode, shown, runs if runs else ""), file=sys.stderr, flush=True)
    print("| class | MB | " + " | ".join(modes) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in modes) + " |")
    for name in classes:
        mb = text_bytes(args.dir, name) / (1 << 20)
        cells = []
        for mode in modes:
            t, p = seconds[name, mode], seconds["prose", mode]
            if t is None:
                cells.append("> %.0f s" % args.timeout)
            else:
                per = t / text_bytes(args.dir, name)
                ratio = per / (p / text_bytes(args.dir, "prose")) if p else float("nan")
                cells.append("%.2f s (%.1fx)" % (t, ratio))
        print("| %s | %.1f | %s |" % (name, mb, " | ".join(cells)))


if __name__ == "__main__":
    main()
