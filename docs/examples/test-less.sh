#!/usr/bin/env bash
# A shell test of `less`, driven through weft: `weft run` starts it in a pane of its own,
# `weft wait` waits for what a user would see (never for a time), `weft send-keys` types, and
# `weft wait --exit` gives its exit status. Any failed step exits non-zero with the screen.
#
#     bash docs/examples/test-less.sh            # uses `weft` from PATH
#     WEFT=./target/debug/weft bash docs/examples/test-less.sh
set -euo pipefail

weft=${WEFT:-weft}
dir=$(mktemp -d)
# A private server for this test; it ends with the test, passed or failed.
w() { "$weft" -S "$dir/weft.sock" "$@"; }
trap 'w kill-server >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT

seq -f 'line %g' 1 200 >"$dir/file.txt"

# --remain keeps the pane after less exits, so its status can be read.
pane=$(w run --remain --size 80x24 -- less "$dir/file.txt")
w wait -t "$pane" --text 'line 23' --timeout 10 >/dev/null

w send-keys -t "$pane" G
w wait -t "$pane" --text 'line 200' --timeout 10 >/dev/null

# Search backwards: the match is drawn on the top row.
w send-keys -t "$pane" '?line 150' Enter
w wait -t "$pane" --row 0 --regex '^line 150 *$' --timeout 10 >/dev/null

w send-keys -t "$pane" q
status=$(w wait -t "$pane" --exit --timeout 10)
if [ "$status" != 0 ]; then
    echo "less exited with status $status" >&2
    exit 1
fi
echo "PASS: less pages, searches and quits"
