#!/usr/bin/env python3
"""Follow a weft server, session or pane and print what happens, one line an event.

Uses only the standard library: it runs `weft subscribe`, which prints one JSON object a line,
and reads its output as it comes.

    python3 subscribe.py                 # the whole server
    python3 subscribe.py -t work         # session "work"
    python3 subscribe.py -t %3           # pane %3, until its program exits
    python3 subscribe.py -S /tmp/my.sock --weft ./target/debug/weft

It ends when what it follows ends (or on Ctrl-C).
"""

import argparse
import json
import subprocess
import sys


def describe(event):
    """One readable line (or a few, for output) for an event."""
    kind = event.get("event")
    where = " ".join(event[k] for k in ("session", "pane", "window") if k in event)
    if kind == "output":
        rows = [f"    {r['row']:>3}| {r['text']}" for r in event["rows"] if r["text"]]
        head = f"output {where} (revision {event['revision']}, {len(event['rows'])} rows changed)"
        return "\n".join([head] + rows)
    if kind == "lagged":
        return f"missed {event['lagged']} events (this reader fell behind)"
    details = {
        k: v
        for k, v in event.items()
        if k not in ("event", "session", "pane", "window")
    }
    extra = " ".join(f"{k}={json.dumps(v)}" for k, v in details.items())
    return f"{kind} {where} {extra}".rstrip()


def main():
    parser = argparse.ArgumentParser(description="Print what happens in weft.")
    parser.add_argument("-t", dest="target", help="a session or pane (default: the server)")
    parser.add_argument("-S", dest="socket", help="the server's socket")
    parser.add_argument("--weft", default="weft", help="the weft program to run")
    args = parser.parse_args()

    command = [args.weft]
    if args.socket:
        command += ["-S", args.socket]
    command += ["subscribe", "--format", "json"]
    if args.target:
        command += ["-t", args.target]

    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as weft:
        try:
            for line in weft.stdout:
                print(describe(json.loads(line)), flush=True)
        except KeyboardInterrupt:
            weft.terminate()
            return 130
    return weft.returncode


if __name__ == "__main__":
    sys.exit(main())
