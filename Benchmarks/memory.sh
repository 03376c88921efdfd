#!/usr/bin/env bash
# Peak RSS of stream-render on 100 MB of streamed text with --max-lines 10000
# (issue 4: must stay under 64 MB). Run from the repository root:
#   bash Benchmarks/memory.sh
# Exits 1 when the target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
static=(); [ "$(uname)" = Linux ] && static=(--static-swift-stdlib)  # as users build it (decision 0023)
swift build -c release "${static[@]}" --product stream-render >/dev/null
bin="$(swift build -c release "${static[@]}" --show-bin-path)/stream-render"
answer=Tests/StreamRenderTests/Resources/answers/coding-answer.md
limit_kb=$((64 * 1024))

# 100 MB of text, generated on the fly (no temporary file): the coding answer repeated.
repeat_text() {
  local bytes=$1 size
  size=$(wc -c < "$answer")
  for _ in $(seq 1 $((bytes / size + 1))); do cat "$answer"; done
}

measure() {  # name, producer command, stream-render arguments...
  local name=$1 producer=$2; shift 2
  local report rss status=PASS
  # time -v wraps stream-render alone: the producer's memory is not counted.
  report=$( { bash -c "$producer" | /usr/bin/time -v "$bin" "$@" > /dev/null; } 2>&1 )
  rss=$(echo "$report" | awk -F': ' '/Maximum resident set size/ {print $2}')
  [ "$rss" -lt "$limit_kb" ] || status=FAIL
  echo "$status $name: peak RSS $((rss / 1024)) MB (target < 64 MB)"
  [ "$status" = PASS ]
}

text100="$(declare -f repeat_text); answer=$answer; repeat_text 100000000"
ok=0
measure "100 MB text, --max-lines 10000, width 80" "$text100" --format text --max-lines 10000 --width 80 || ok=1
measure "100 MB text, default limits, width 80" "$text100" --format text --width 80 || ok=1
if [ -x ../shared/tools/sse-synth ]; then
  measure "10 MB of text as a 300 MB Anthropic SSE stream, --max-lines 10000" \
    "../shared/tools/sse-synth --repeat-to 10000000 '$answer'" --max-lines 10000 --width 80 || ok=1
fi
exit $ok
