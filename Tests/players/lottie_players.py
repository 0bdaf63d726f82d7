#!/usr/bin/env python3
"""choreo's exports in the players people use, against choreo's own frames.

For every example, every SwiftUI example and a sample of the import corpus:
  * the Lottie export (30 fps) is validated against the Lottie schema (PyPI lottie-specs, with
    jsonschema);
  * it is played in lottie-web (its SVG renderer, in headless Chromium; the built player that
    PyPI's wagtail-lottie ships), in rlottie (Debian's librlottie, through its C API) and in
    ThorVG (PyPI thorvg-python) at five frames, and each frame is compared with choreo's own
    picture at the same time (`choreo render --format png --time`): the mean difference per
    channel of the premultiplied pixels, in levels of 255, must be at most 2;
  * a scene that repeats for ever is exported as a whole number of its periods, played as the
    players loop a file (`ip` … `op`, counted from `ip`): the file starts (`ip`) at the report's
    `loop.start` (0, or where the repeating part begins) and ends (`op`) at `loop.end`, one
    common period later to the frame, choreo's frames there are the same picture, and across
    the seam each player's last frame is choreo's frame before the end and its first frame is
    choreo's frame at the end (what comes after the seam: no jump, no frame shown twice);
  * its dotLottie container (`--format dotlottie`) is a ZIP whose manifest names the animation,
    which is the Lottie file;
  * the HTML page, shown at a time with `?t=` in the same Chromium, is compared at the same
    times, within 2 levels too (its text placed where Pango sets it, the glyphs the browser's).

Prints one line per scene and player, a table at the end, and exits 1 if any check failed.
"""
import base64
import ctypes
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile

import jsonschema
import numpy
import websocket
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHOREO = os.path.join(ROOT, ".build", "debug", "choreo")
CHROMIUM = "/usr/bin/chromium"
FPS = 30
TIMES = 5
LIMIT = 2.0
# The import corpus's Objective-C files import one by one; a sample of its loaders.
CORPUS = [
    "DGActivityIndicatorBallPulseAnimation.m",
    "DGActivityIndicatorBallClipRotateAnimation.m",
    "DGActivityIndicatorBallScaleRippleMultipleAnimation.m",
    "DGActivityIndicatorLineScalePulseOutAnimation.m",
    "DGActivityIndicatorTriplePulseAnimation.m",
    "DGActivityIndicatorRotatingSquaresAnimation.m",
]


def lottie_web_path():
    """lottie-web's built player as PyPI's wagtail-lottie ships it (version 5.7.4)."""
    import wagtail_lottie

    path = os.path.join(os.path.dirname(wagtail_lottie.__file__), "static", "wagtail_lottie", "lottie-player.js")
    if not os.path.exists(path):
        raise RuntimeError(f"{path} is missing")
    return path


def schema_validator():
    import lottie_specs

    path = os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")
    with open(path) as file:
        return jsonschema.Draft202012Validator(json.load(file))


def run(arguments, **kwargs):
    result = subprocess.run(arguments, capture_output=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(arguments)}: {result.stderr.decode(errors='replace')[-2000:]}")
    return result.stdout


def premultiplied(rgba):
    """An H × W × 4 float array of premultiplied channels, 0…255."""
    pixels = rgba.astype(numpy.float64)
    alpha = pixels[..., 3:4] / 255
    pixels[..., :3] *= alpha
    return pixels


def png_pixels(data):
    return premultiplied(numpy.asarray(Image.open(io.BytesIO(data)).convert("RGBA")))


def mean_difference(a, b):
    height = min(a.shape[0], b.shape[0])
    width = min(a.shape[1], b.shape[1])
    return float(numpy.abs(a[:height, :width] - b[:height, :width]).mean())


class Rlottie:
    """Debian's librlottie through its C API: premultiplied ARGB words."""

    def __init__(self):
        self.library = ctypes.CDLL("librlottie.so")
        self.library.lottie_animation_from_data.restype = ctypes.c_void_p
        self.library.lottie_animation_from_data.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
        self.library.lottie_animation_render.argtypes = [
            ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]
        self.library.lottie_animation_destroy.argtypes = [ctypes.c_void_p]

    def frames(self, data, width, height, frames, key):
        animation = self.library.lottie_animation_from_data(data, key.encode(), b"")
        if not animation:
            raise RuntimeError("rlottie did not load the file")
        pictures = []
        try:
            for frame in frames:
                buffer = (ctypes.c_uint32 * (width * height))()
                self.library.lottie_animation_render(animation, frame, buffer, width, height, width * 4)
                words = numpy.frombuffer(buffer, dtype=numpy.uint32).reshape(height, width)
                # ARGB words: bytes B, G, R, A in memory.
                channels = words.view(numpy.uint8).reshape(height, width, 4)
                pictures.append(channels[..., [2, 1, 0, 3]].astype(numpy.float64))
        finally:
            self.library.lottie_animation_destroy(animation)
        return pictures


class ThorVG:
    """PyPI's thorvg-python: its software canvas, premultiplied ABGR words."""

    def __init__(self):
        import thorvg_python as tvg

        self.tvg = tvg
        self.engine = tvg.Engine(threads=0)

    def frames(self, data, width, height, frames, key):
        tvg = self.tvg
        canvas = tvg.SwCanvas(self.engine)
        canvas.set_target(width, height, cs=tvg.Colorspace.ABGR8888)
        buffer = canvas.buffer_arr
        animation = tvg.LottieAnimation(self.engine)
        picture = animation.get_picture()
        if picture.load_data(data, "lottie", None, True) != tvg.Result.SUCCESS:
            raise RuntimeError("ThorVG did not load the file")
        picture.set_size(width, height)
        canvas.add(picture)
        pictures = []
        for frame in frames:
            animation.set_frame(float(frame))
            canvas.update()
            canvas.draw(True)
            canvas.sync()
            words = numpy.frombuffer(buffer, dtype=numpy.uint32).reshape(height, width)
            pictures.append(words.view(numpy.uint8).reshape(height, width, 4).astype(numpy.float64).copy())
        canvas.destroy()
        return pictures


class Chromium:
    """One headless Chromium page over the DevTools protocol, a transparent background."""

    def __init__(self, profile):
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--allow-file-access-from-files", f"--user-data-dir={profile}", "--remote-debugging-port=0",
             "--hide-scrollbars", "--force-color-profile=srgb", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = os.path.join(profile, "DevToolsActivePort")
        limit = time.time() + 30
        while not os.path.exists(active) or not open(active).read().strip():
            if time.time() > limit:
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.1)
        port = open(active).read().split()[0]
        pages = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=10).read())
        page = next(p for p in pages if p["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60)
        self.next_id = 0
        self.call("Page.enable")
        self.call("Emulation.setDefaultBackgroundColorOverride", color={"r": 0, "g": 0, "b": 0, "a": 0})

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:200]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url, width, height, ready="document.readyState === 'complete'"):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", url=url)
        limit = time.time() + 20
        while time.time() < limit:
            try:
                if self.evaluate(ready):
                    return
            except RuntimeError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{url} did not load")

    def screenshot(self, width, height):
        result = self.call(
            "Page.captureScreenshot", format="png",
            clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        return png_pixels(base64.b64decode(result["data"]))

    def close(self):
        try:
            self.socket.close()
        finally:
            self.process.kill()
            self.process.wait()


class LottieWeb:
    """lottie-web's SVG renderer in the Chromium page, paused at a frame (goToAndStop)."""

    def __init__(self, browser, scratch):
        self.browser = browser
        self.page = os.path.join(scratch, "lottie-web.html")
        with open(self.page, "w") as file:
            file.write(
                "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
                "#player{position:absolute;left:0;top:0}</style>"
                f"<script src='file://{lottie_web_path()}'></script></head>"
                "<body><div id='player'></div></body></html>")

    def frames(self, data, width, height, frames, key):
        self.browser.open(f"file://{self.page}", width, height, "typeof lottie === 'object'")
        document = json.loads(data)
        self.browser.evaluate(
            "window.player = lottie.loadAnimation({container: document.getElementById('player'), "
            f"renderer: 'svg', loop: false, autoplay: false, animationData: {json.dumps(document)}}}); "
            f"document.getElementById('player').style.width = '{width}px'; "
            f"document.getElementById('player').style.height = '{height}px'; true")
        pictures = []
        for frame in frames:
            self.browser.evaluate(f"player.goToAndStop({frame}, true); new Promise(r => requestAnimationFrame(() => r(1)))")
            pictures.append(self.browser.screenshot(width, height))
        return pictures


# Colours that a player must give back to the level: #F2F2F7 (four decimals lose one in rlottie
# and lottie-web), and a spring between two close blues, whose overshooting progress amplifies
# any rounding of its keyframes (a browser rounds rgba() keyframes to 8 bits).
COLOUR_PROBE = {
    "name": "colour probe", "canvas": {"width": 120, "height": 60, "background": "#FFFFFF"},
    "layers": [
        {"id": "grey", "position": [30, 30], "bounds": [0, 0, 40, 40], "backgroundColor": "#F2F2F7"},
        {"id": "spring", "position": [90, 30], "bounds": [0, 0, 40, 40], "backgroundColor": "#3478F6"}],
    "script": [{"at": 0, "do": [{"add": {
        "type": "spring", "keyPath": "backgroundColor", "fromValue": "#3478F6", "toValue": "#3A7BF7",
        "duration": 1.5, "damping": 4, "stiffness": 100}, "layer": "spring"}]}],
}
# Where the probe's colours are read: the grey card's centre, exactly; the spring's square, to
# a level at most.
PROBE_GREY = (30, 30, (242, 242, 247))
PROBE_SPRING = (slice(15, 45), slice(75, 105))


def probe_failures(name, player, pictures, expected, frames):
    """The colour probe's checks on one player's frames."""
    failures = []
    x, y, grey = PROBE_GREY
    for picture, frame in zip(pictures, frames):
        got = tuple(int(round(v)) for v in picture[y, x, :3])
        if got != grey:
            failures.append(f"{name}: {player} draws #F2F2F7 as {got} at frame {frame}")
        rows, columns = PROBE_SPRING
        worst = float(numpy.abs(picture[rows, columns] - expected[frame][rows, columns]).max())
        if worst > 1:
            failures.append(f"{name}: {player} draws the spring's colour {worst:.1f} levels off at frame {frame}")
    return failures


def scenes(scratch):
    """(name, scene JSON path) for every example, SwiftUI example, the corpus sample and the
    colour probe."""
    found = [(os.path.basename(p)[:-5], p) for p in sorted(glob.glob(os.path.join(ROOT, "examples", "*.json")))]
    probe = os.path.join(scratch, "colour-probe.scene.json")
    with open(probe, "w") as file:
        json.dump(COLOUR_PROBE, file)
    found.append(("colour-probe", probe))
    sources = sorted(glob.glob(os.path.join(ROOT, "examples", "swiftui", "*.swift")))
    sources += [os.path.join(ROOT, "Tests", "import-corpus", "DGActivityIndicatorView", "Animations", f) for f in CORPUS]
    for source in sources:
        name = os.path.splitext(os.path.basename(source))[0]
        path = os.path.join(scratch, name + ".scene.json")
        with open(path, "wb") as file:
            file.write(run([CHOREO, "import", source]))
        found.append((name, path))
    return found


def main():
    global CHOREO
    only = sys.argv[1:]
    for tool in (CHOREO, CHROMIUM):
        if not os.path.exists(tool):
            print(f"players: {tool} is missing", file=sys.stderr)
            return 1
    started = time.time()
    scratch = tempfile.mkdtemp(prefix="choreo-players-")
    # A copy: a build while the run goes on does not take the binary away under it.
    # (with its import helper beside it, where it looks for it).
    for binary in ("choreo-import", "choreo"):
        copy = shutil.copy(os.path.join(os.path.dirname(CHOREO), binary), os.path.join(scratch, binary))
    CHOREO = copy
    browser = Chromium(os.path.join(scratch, "profile"))
    failures = []
    rows = []
    try:
        validator = schema_validator()
        players = {"lottie-web": LottieWeb(browser, scratch), "rlottie": Rlottie(), "ThorVG": ThorVG()}
        for name, scene in scenes(scratch):
            if only and name not in only:
                continue
            lottie_path = os.path.join(scratch, name + ".json")
            report = json.loads(run([CHOREO, "export", scene, "--format", "lottie", "--fps", str(FPS),
                                     "--out", lottie_path, "--report", "/dev/stdout"]))
            data = open(lottie_path, "rb").read()
            document = json.loads(data)
            errors = list(validator.iter_errors(document))
            if errors:
                first = jsonschema.exceptions.best_match(errors)
                failures.append(f"{name}: {len(errors)} schema errors, first at "
                                f"{'/'.join(map(str, first.absolute_path))}: {first.message[:200]}")
            # The dotLottie container: a ZIP whose manifest names the one animation inside, which is
            # the Lottie file (its report's format aside), looped where the scene is seamless.
            dot_path = os.path.join(scratch, name + ".lottie")
            run([CHOREO, "export", scene, "--format", "dotlottie", "--fps", str(FPS), "--out", dot_path])
            with zipfile.ZipFile(dot_path) as archive:
                manifest = json.loads(archive.read("manifest.json"))
                entry = manifest["animations"][0]
                inner = json.loads(archive.read(f"animations/{entry['id']}.json"))
                inner["choreo"]["format"] = "lottie"
                seamless = bool(report.get("loop") and report["loop"]["period"] is not None)
                if archive.testzip() is not None or inner != document or entry["loop"] != seamless:
                    failures.append(f"{name}: the dotLottie container is not the Lottie file (manifest {manifest})")
            width, height, op = int(document["w"]), int(document["h"]), int(document["op"])
            ip = int(document["ip"])
            loop = report.get("loop")
            if loop and loop["period"] is None:
                print(f"{name}: {loop['note']}", flush=True)
                loop = None
            last = op - 1
            # Frames of the file (the scene at frame / FPS); a player shows frame f as its f − ip.
            frames = sorted({ip + round(k * (last - ip) / (TIMES - 1)) for k in range(TIMES)})
            expected = {}
            for frame in sorted(set(frames + ([op] if loop else []))):
                png = run([CHOREO, "render", scene, "--format", "png", "--time", repr(frame / FPS), "--out", "/dev/stdout"])
                expected[frame] = png_pixels(png)
            # A scene whose layers draw nothing (no colour) is counted apart.
            row = {"scene": name, "schema": len(errors), "visible": any(p[..., 3].any() for p in expected.values())}
            if loop:
                seam = mean_difference(expected[ip], expected[op])
                row["seam"] = seam
                if (abs(loop["end"] * FPS - op) > 0.01 or abs(loop["start"] * FPS - ip) > 0.01
                        or abs(loop["period"] * FPS - (op - ip)) > 0.01 or seam > 0.5):
                    failures.append(f"{name}: the file is not one whole period (ip {ip}, op {op}, loop {loop}, "
                                    f"choreo's frames at its ends differ by {seam:.2f})")
            for player, engine in players.items():
                # Its frames counted from ip, as the players count them.
                shown = [f - ip for f in frames]
                try:
                    pictures = engine.frames(data, width, height, shown, name)
                except Exception as error:  # a player that cannot draw the file fails the check
                    failures.append(f"{name}: {player}: {error}")
                    row[player] = None
                    continue
                if name == "colour-probe":
                    failures += probe_failures(name, player, pictures, expected, frames)
                differences = [mean_difference(p, expected[f]) for p, f in zip(pictures, frames)]
                row[player] = max(differences)
                if row[player] > LIMIT:
                    failures.append(f"{name}: {player} differs by {row[player]:.2f} levels "
                                    f"(frames {frames}: {', '.join(f'{d:.2f}' for d in differences)})")
                if loop:
                    # Across the seam: its last frame (op − 1) is choreo's before the end, and the
                    # one it loops to, its first, is choreo's at the end.
                    after = mean_difference(pictures[0], expected[op])
                    before = differences[-1]
                    row[player + " seam"] = max(before, after)
                    if after > LIMIT or before > LIMIT:
                        failures.append(f"{name}: {player} across the seam: its last frame differs from choreo's "
                                        f"by {before:.2f}, its first from the frame after the seam by {after:.2f}")
            # The HTML page, shown at the same times (scene time: the page plays the run from 0).
            html_path = os.path.join(scratch, name + ".html")
            run([CHOREO, "export", scene, "--format", "html", "--fps", str(FPS), "--out", html_path])
            page = []
            for frame in frames:
                browser.open(f"file://{html_path}?t={frame / FPS!r}", width, height)
                browser.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))")
                picture = browser.screenshot(width, height)
                if name == "colour-probe":
                    failures += probe_failures(name, "the page", [picture], expected, [frame])
                page.append(mean_difference(picture, expected[frame]))
            row["html"] = max(page)
            if row["html"] > LIMIT:
                failures.append(f"{name}: the page differs by {row['html']:.2f} levels")
            rows.append(row)
            print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
    finally:
        browser.close()
        shutil.rmtree(scratch, ignore_errors=True)
    print()
    print("| player | scenes within 2 levels |")
    print("| --- | --- |")
    visible = [r for r in rows if r["visible"]]
    for player in ("lottie-web", "rlottie", "ThorVG", "html"):
        within = sum(1 for r in visible if r.get(player) is not None and r[player] <= LIMIT)
        worst = max((r[player] for r in visible if r.get(player) is not None), default=0)
        print(f"| {player} | {within} / {len(visible)} (worst {worst:.2f}) |")
    print(f"{len(rows) - len(visible)} scenes draw nothing in choreo's frames (no colour)")
    print(f"schema-valid: {sum(1 for r in rows if r['schema'] == 0)} / {len(rows)}; {time.time() - started:.0f} s")
    for failure in failures:
        print("FAIL", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
