#!/usr/bin/env python3
"""Regenerates python-wcwidth.txt: the Python wcwidth package's width of every code
point assigned in Unicode 15.0 (UnicodeData.txt from Debian's unicode-data 15.0.0)
in the BMP and in the SMP emoji blocks U+1F000..U+1FAFF, surrogates excluded.

Output lines are runs: `START END WIDTH` (hex, hex, decimal); -1 (controls) is kept
as the package reports it. Run: python3 generate.py /usr/share/unicode/UnicodeData.txt
"""
import sys
import wcwidth

def assigned(path):
    points = set()
    first = None
    for line in open(path, encoding="utf-8"):
        fields = line.split(";")
        cp, name = int(fields[0], 16), fields[1]
        if name.endswith(", First>"):
            first = cp
        elif name.endswith(", Last>"):
            points.update(range(first, cp + 1))
        else:
            points.add(cp)
    return points

points = sorted(p for p in assigned(sys.argv[1])
                if (p <= 0xFFFF or 0x1F000 <= p <= 0x1FAFF) and not 0xD800 <= p <= 0xDFFF)
print(f"# wcwidth {wcwidth.__version__} (Unicode {wcwidth.list_versions()[-1]}) over Unicode 15.0 assigned code points")
run = None
for p in points:
    w = wcwidth.wcwidth(chr(p))
    if run and run[1] == p - 1 and run[2] == w:
        run[1] = p
    else:
        if run:
            print(f"{run[0]:04X} {run[1]:04X} {run[2]}")
        run = [p, p, w]
print(f"{run[0]:04X} {run[1]:04X} {run[2]}")
