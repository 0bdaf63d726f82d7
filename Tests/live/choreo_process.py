"""A real `choreo` process on a loopback port, for the Python live runs."""
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, ".build", "debug", "choreo")


def start(arguments, log_path=None, timeout=30):
    """Runs `choreo ARGUMENTS` (with `--port 0`) and waits, at most `timeout` seconds, for the
    port its log reports; returns (process, port). Its log keeps being drained, into `log_path`
    or nowhere, so that it never blocks on a full pipe; `process.drain` is the process that
    drains it. Raises RuntimeError if it does not start."""
    process = subprocess.Popen([BINARY] + arguments, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    limit = time.time() + timeout
    while time.time() < limit:
        line = process.stderr.readline()
        if not line:
            break
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if "port" in event:
            sink = open(log_path, "w") if log_path else subprocess.DEVNULL
            process.drain = subprocess.Popen(["cat"], stdin=process.stderr, stdout=sink)
            return process, event["port"]
    process.kill()
    raise RuntimeError(f"{arguments[0]} did not start")
