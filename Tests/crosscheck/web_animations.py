#!/usr/bin/env python3
"""Cross-check choreo's timing engine against an exact Web Animations model.

The part of Core Animation's model that Web Animations shares — delays, speeds, fractional
and infinite repeats, repeat durations, autoreverse, fills, additive, named / cubic / steps
curves, keyframes with per-segment curves, a reversed animation — is generated at random
(seeded), rendered by the real `choreo render`, and compared with Web Animations Level 1
(timing model §4, keyframe effect value §5) computed with rational time arithmetic
(fractions.Fraction): phases, iterations and boundaries are exact; only a cubic Bézier's
solve is a float bisection to the last bit.

A sample matches when it is within 1e-6 of the animated range. The run fails when fewer
than --min-match percent of the samples match (the default asks for every one).

    python3 Tests/crosscheck/web_animations.py [--cases 400] [--seed 1] [--choreo PATH]
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction as F

INF = float("inf")

NAMED = {
    "linear": (0, 0, 1, 1),
    "easeIn": (0.42, 0, 1, 1),
    "easeOut": (0, 0, 0.58, 1),
    "easeInEaseOut": (0.42, 0, 0.58, 1),
    "default": (0.25, 0.1, 0.25, 1),
}


# --- Easing (CSS Easing Level 1) -------------------------------------------------------------


def bezier(points, x):
    """y of a cubic Bézier easing at x; outside 0…1 the end tangents (CSS Easing §2.2)."""
    x1, y1, x2, y2 = points
    if (x1 == y1 and x2 == y2) or x == 0 or x == 1:
        return x
    if x < 0:
        if x1 > 0:
            g = y1 / x1
        elif y1 == 0 and x2 > 0:
            g = y2 / x2
        else:
            g = 0 if not (y1 == 0 and y2 == 0) else 1
        return g * x
    if x > 1:
        if x2 < 1:
            g = (y2 - 1) / (x2 - 1)
        elif y2 == 1 and x1 < 1:
            g = (y1 - 1) / (x1 - 1)
        else:
            g = 0 if not (y2 == 1 and y1 == 1) else 1
        return 1 + g * (x - 1)
    if x == 0 or x == 1:
        return x

    def bx(t):
        return 3 * x1 * (1 - t) ** 2 * t + 3 * x2 * (1 - t) * t * t + t**3

    def by(t):
        return 3 * y1 * (1 - t) ** 2 * t + 3 * y2 * (1 - t) * t * t + t**3

    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            break
        if bx(mid) < x:
            lo = mid
        else:
            hi = mid
    return by((lo + hi) / 2)


def steps(n, position, x, before_flag):
    current = math.floor(x * n)
    if position == "start":
        current += 1
    if before_flag and (x * n) % 1 == 0:
        current -= 1
    if x >= 0 and current < 0:
        current = 0
    if x <= 1 and current > n:
        current = n
    return F(current, n) if isinstance(x, F) else current / n


def ease(function, x, before_flag=False):
    kind = function[0]
    if kind == "steps":
        return steps(function[1], function[2], x, before_flag)
    points = function[1]
    if (points[0] == points[1] and points[2] == points[3]) or x == 0 or x == 1:
        return x
    return bezier(points, float(x))


# --- Web Animations timing model -----------------------------------------------------------


def effect_value(case, t):
    """position.x at time t (a Fraction): the exact Web Animations value; None: no effect."""
    delay, D, iterations, direction, fill = case["delay"], case["D"], case["iterations"], case["direction"], case["fill"]
    active = D * iterations if iterations != INF else INF
    end = delay + active if active != INF else INF
    if t < delay:
        phase = "before"
    elif active != INF and t >= end:
        phase = "after"
    else:
        phase = "active"
    if phase == "before":
        if fill not in ("backwards", "both"):
            return None
        active_time = F(0)
    elif phase == "active":
        active_time = t - delay
    else:
        if fill not in ("forwards", "both"):
            return None
        active_time = max(min(t - delay, active), F(0))
    overall = active_time / D
    if overall == INF:
        sip = F(0)
    else:
        sip = overall - math.floor(overall)
    if sip == 0 and phase in ("active", "after") and active_time == active and iterations != 0:
        sip = F(1)
    if phase == "after" and iterations == INF:
        current = INF
    elif sip == 1:
        current = math.floor(overall) - 1
    else:
        current = math.floor(overall)
    if direction == "normal":
        forwards = True
    elif direction == "reverse":
        forwards = False
    else:
        forwards = current == INF or current % 2 == 0
    directed = sip if forwards else 1 - sip
    before_flag = (phase == "before" and forwards) or (phase == "after" and not forwards)
    progress = ease(case["easing"], directed, before_flag)
    return keyframes_value(case["keyframes"], progress)


def keyframes_value(keyframes, p):
    """Web Animations 'the effect value of a keyframe effect' for one property: a keyframe's
    easing is evaluated without the before flag."""
    if p < 0:
        a, b = keyframes[0], keyframes[1]
    elif p >= 1:
        a, b = keyframes[-2], keyframes[-1]
    else:
        i = max(k for k in range(len(keyframes) - 1) if keyframes[k][0] <= p)
        a, b = keyframes[i], keyframes[i + 1]
    distance = (p - a[0]) / (b[0] - a[0])
    if a[2] is not None:
        distance = ease(a[2], distance)
    return a[1] + (b[1] - a[1]) * float(distance)


# --- Random cases and their Core Animation spelling ----------------------------------------


def dec(x):
    """A Fraction with a finite decimal expansion, written exactly."""
    text = f"{float(x):.9f}".rstrip("0").rstrip(".")
    assert F(text) == x, (x, text)
    return text


def random_function(rng, allow_steps=True):
    roll = rng.random()
    if roll < 0.35:
        name = rng.choice(list(NAMED))
        return ("bezier", NAMED[name]), json.dumps(name)
    if roll < 0.7 or not allow_steps:
        points = (
            round(rng.random(), 2),
            round(rng.uniform(-1, 2), 2),
            round(rng.random(), 2),
            round(rng.uniform(-1, 2), 2),
        )
        return ("bezier", points), json.dumps(list(points))
    n = rng.randint(1, 5)
    position = rng.choice(["start", "end"])
    return ("steps", n, position), json.dumps({"steps": n, "position": position})


def random_case(rng):
    d = F(rng.choice([100, 200, 250, 300, 500, 1000, 1500, 700, 1234]), 1000)
    delay = F(rng.choice([0, 0, 100, 250, 500, 1000, 333]), 1000)
    speed = rng.choice([F(1), F(1), F(2), F(1, 2), F(-1), F(-2)])
    autoreverses = speed > 0 and rng.random() < 0.3
    if speed < 0:
        repeat = rng.choice([F(0), F(2), F(3), INF])
    else:
        repeat = rng.choice([F(0), F(1, 2), F(3, 2), F(2), F(3), F(5, 2), INF])
    repeat_duration = None
    if speed > 0 and repeat != INF and rng.random() < 0.15:
        repeat_duration = F(rng.choice([500, 1500, 2250]), 1000)
    fill = rng.choice(["removed", "forwards", "backwards", "both"])
    additive = rng.random() < 0.25
    base = F(rng.choice([0, 10, -20]))
    easing, easing_json = random_function(rng) if rng.random() < 0.8 else (("bezier", NAMED["linear"]), None)
    if rng.random() < 0.5:
        a, b = F(rng.randint(-100, 100)), F(rng.randint(-100, 100))
        if a == b:
            b += 50
        keyframes = [(F(0), a, None), (F(1), b, None)]
        ca = {"type": "basic", "fromValue": int(a), "toValue": int(b)}
    else:
        count = rng.randint(2, 5)
        values = [F(rng.randint(-100, 100)) for _ in range(count)]
        offsets = sorted(rng.sample(range(1, 100), count - 2))
        times = [F(0)] + [F(o, 100) for o in offsets] + [F(1)]
        functions = [random_function(rng) if rng.random() < 0.6 else (None, '"linear"') for _ in range(count - 1)]
        keyframes = [(times[i], values[i], functions[i][0] if i < count - 1 else None) for i in range(count)]
        ca = {
            "type": "keyframe",
            "values": [int(v) for v in values],
            "keyTimes": [float(x) for x in times],
            "timingFunctions": [json.loads(f[1]) for f in functions],
        }
    ca.update({"keyPath": "position.x", "duration": float(d), "delay": float(delay)})
    if speed != 1:
        ca["speed"] = float(speed)
    if repeat == INF:
        ca["repeatCount"] = "infinity"
    elif repeat:
        ca["repeatCount"] = float(repeat)
    if repeat_duration is not None:
        ca["repeatDuration"] = float(repeat_duration)
    if autoreverses:
        ca["autoreverses"] = True
    if fill != "removed":
        ca["fillMode"] = fill
    if fill in ("forwards", "both"):
        ca["removedOnCompletion"] = False
    if additive:
        ca["additive"] = True
    if easing_json is not None:
        ca["timingFunction"] = json.loads(easing_json)
    # The same timing in Web Animations' terms.
    D = d / abs(speed)
    passes = repeat if repeat else F(1)
    if repeat_duration is not None:
        passes = repeat_duration / d
    elif autoreverses:
        passes = passes * 2 if passes != INF else INF
    direction = "alternate" if autoreverses else ("reverse" if speed < 0 else "normal")
    case = {
        "delay": delay,
        "D": D,
        "iterations": passes,
        "direction": direction,
        "fill": "none" if fill == "removed" else fill,
        "easing": easing,
        "keyframes": keyframes,
        "additive": additive,
        "base": base,
        "ca": ca,
    }
    # Sample times: the cycle boundaries exactly, points around them, and a 60 fps grid.
    times = set()
    k = 0
    while k <= 8 and (passes == INF or k <= passes):
        times.add(delay + k * D)
        k += 1
    if passes != INF:
        times.add(delay + passes * D)
    limit = delay + (passes * D if passes != INF else 6 * D) + F(1, 2)
    for _ in range(12):
        times.add(F(round(rng.uniform(0, float(limit)) * 60), 60))
    # Each instant exactly for the model, and as choreo receives it (to the nanosecond, its
    # resolution: instants closer than 1 ns are the same instant).
    case["times"] = sorted(x for x in times if x >= 0)
    return case


def dec_round(x):
    """The instant choreo samples: the time rounded to the nanosecond, as a decimal string."""
    return f"{round(float(x) * 1e9) / 1e9:.9f}".rstrip("0").rstrip(".")


# --- Running choreo ------------------------------------------------------------------------


def render(choreo, cases):
    layers = [{"id": f"L{i}", "position": [float(c["base"]), 0]} for i, c in enumerate(cases)]
    actions = [{"add": c["ca"], "layer": f"L{i}"} for i, c in enumerate(cases)]
    scene = {"layers": layers, "script": [{"at": 0, "do": actions}]}
    times = sorted({dec_round(t) for c in cases for t in c["times"]}, key=float)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "scene.json")
        with open(path, "w") as f:
            json.dump(scene, f)
        out = subprocess.run(
            [choreo, "render", path, "--times", ",".join(times), "--properties", "position.x"],
            capture_output=True,
            check=True,
        ).stdout
    frames = json.loads(out)["frames"]
    return {time: frame["layers"] for time, frame in zip(times, frames)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--choreo", default=".build/debug/choreo")
    parser.add_argument("--min-match", type=float, default=100.0)
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [random_case(rng) for _ in range(args.cases)]
    total = matched = 0
    mismatches = []
    for start in range(0, len(cases), 50):
        batch = cases[start : start + 50]
        frames = render(args.choreo, batch)
        for index, case in enumerate(batch):
            span = max(abs(k[1]) for k in case["keyframes"]) + abs(case["base"])
            base = float(case["base"])
            for t in case["times"]:
                got = frames[dec_round(t)][f"L{index}"]["position.x"]
                value = effect_value(case, t)
                expected = base if value is None else value + (base if case["additive"] else 0)
                total += 1
                if abs(got - expected) <= 1e-6 * max(1.0, float(span)):
                    matched += 1
                else:
                    mismatches.append((start + index, float(t), got, expected, case["ca"]))
    percent = 100.0 * matched / total
    print(
        json.dumps(
            {
                "cases": args.cases,
                "seed": args.seed,
                "samples": total,
                "matched": matched,
                "matched_percent": round(percent, 3),
                "mismatched": len(mismatches),
            }
        )
    )
    for case, t, got, expected, ca in mismatches[: args.show]:
        print(f"case {case} at {t}: choreo {got}, exact {expected}: {json.dumps(ca)}", file=sys.stderr)
    print(f"crosscheck: {matched} passed, {len(mismatches)} failed")
    return 1 if percent < args.min_match else 0


if __name__ == "__main__":
    sys.exit(main())
