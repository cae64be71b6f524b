#!/usr/bin/env python3
"""A Python test of `less`, driven through weft with the standard library only.

`weft run` starts less in a pane of its own; `weft subscribe` streams what happens in it as
JSON lines, read here as they come (no polling, no sleeps); `weft send-keys` types.

    python3 docs/examples/test_less.py                  # uses `weft` from PATH
    WEFT=./target/debug/weft python3 docs/examples/test_less.py
"""

import json
import os
import queue
import subprocess
import tempfile
import threading
import unittest

WEFT = os.environ.get("WEFT", "weft")
TIMEOUT = 10


class LessTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.socket = os.path.join(self.dir.name, "weft.sock")
        self.file = os.path.join(self.dir.name, "file.txt")
        with open(self.file, "w") as f:
            f.writelines(f"line {i}\n" for i in range(1, 201))

    def tearDown(self):
        self.weft("kill-server", check=False)
        self.dir.cleanup()

    def weft(self, *args, check=True):
        """Runs a weft command on this test's server and returns what it printed."""
        done = subprocess.run(
            [WEFT, "-S", self.socket, *args], capture_output=True, text=True, timeout=TIMEOUT
        )
        if check and done.returncode != 0:
            self.fail(f"weft {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def follow(self, pane):
        """Starts `weft subscribe` on `pane`; its events arrive on the returned queue."""
        events = queue.Queue()
        reader = subprocess.Popen(
            [WEFT, "-S", self.socket, "subscribe", "-t", pane, "--format", "json"],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.addCleanup(reader.stdout.close)
        self.addCleanup(reader.wait)
        self.addCleanup(reader.terminate)

        def pump():
            for line in reader.stdout:
                events.put(json.loads(line))
            events.put(None)

        threading.Thread(target=pump, daemon=True).start()
        return events

    def expect(self, events, what, accept):
        """Takes events until one is accepted; fails after TIMEOUT seconds or at the end."""
        while True:
            try:
                event = events.get(timeout=TIMEOUT)
            except queue.Empty:
                self.fail(f"no event {what} within {TIMEOUT} s")
            if event is None:
                self.fail(f"the stream ended before {what}")
            if accept(event):
                return event

    def test_less_pages_and_quits(self):
        # Started with a program that waits for a key, so no output is missed: the subscriber
        # is listening before less runs.
        pane = self.weft("run", "--size", "80x24", "--", "sh", "-c",
                         f"read go; exec less {self.file}").strip()
        events = self.follow(pane)
        self.expect(events, "subscribed", lambda e: e.get("event") == "subscribed")
        self.weft("send-keys", "-t", pane, "Enter")

        def shows(text):
            return lambda e: e.get("event") == "output" and any(
                r["text"].rstrip() == text for r in e["rows"])

        self.expect(events, "line 1 shown", shows("line 1"))
        self.weft("send-keys", "-t", pane, "G")
        self.expect(events, "line 200 shown", shows("line 200"))
        self.weft("send-keys", "-t", pane, "q")
        exited = self.expect(events, "less exited", lambda e: e.get("event") == "pane-exited")
        self.assertEqual(exited["status"], 0)


if __name__ == "__main__":
    unittest.main()
