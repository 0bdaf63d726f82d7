"""Schemathesis hooks for choreo's run (Tests/live/schemathesis_run.py sets SCHEMATHESIS_HOOKS).

`GET /v1/arena/events` is a stream that never ends unless its client asks for a bound: the
fuzzer cannot know that, so every call of it that would be endless asks for one event (`max`).
A small valid `max` it generated is kept, and so is a value the server must refuse (422 at
once). Everything else the fuzzer generates is sent as it is.
"""
import schemathesis


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.path != "/v1/arena/events":
        return
    query = dict(case.query or {})
    value = query.get("max")
    try:
        endless = not 1 <= int(value) <= 3
        refused = not 1 <= int(value) <= 1_000_000
    except (TypeError, ValueError):
        endless = value is None
        refused = value is not None
    if endless and not refused:
        query["max"] = 1
    case.query = query
