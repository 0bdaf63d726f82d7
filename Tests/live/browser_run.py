#!/usr/bin/env python3
"""The pages in a real browser: headless Chromium (Debian's `chromium`) driven over the
DevTools protocol against a real `choreo serve` with an arena of real `choreo target`s.

Checks what a user does and sees:
  * the wallboard (/arena): a card per node with its status; a node that goes down turns its
    card red from /v1/arena/events without the page reloading; a round, once started, is drawn
    (the animated PNG decodes in the browser);
  * the player (/?scene=...): a stored scene's events are listed and marked, its frame drawn;
    Play advances the clock, scrubbing shows the frame at that time; pasted Objective-C is
    imported as Objective-C; an inner block's events link to its line; on a 390 x 844 phone the
    page is one column no wider than the screen.

Every wait is bounded; the whole run stops after a wall-clock limit.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib

import websocket

from choreo_process import ROOT, start
CHROMIUM = "/usr/bin/chromium"
DEADLINE = time.time() + 360


def decode_png(data):
    """The pixels of an 8-bit RGB or RGBA PNG (what Chromium's screenshots are): a function of
    (x, y) giving (r, g, b), and the size."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, width, height, channels = 8, b"", 0, 0, 0
    while position < len(data):
        length = int.from_bytes(data[position:position + 4], "big")
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8] == 8 and body[9] in (2, 6) and body[12] == 0, "not 8-bit RGB(A), not interlaced"
            channels = 3 if body[9] == 2 else 4
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    raw = zlib.decompress(chunks)
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    return (lambda x, y: tuple(rows[y][x * channels:x * channels + 3])), width, height


def http(method, url, body=None, content_type="application/json"):
    request = urllib.request.Request(url, data=body.encode() if body is not None else None, method=method)
    if body is not None:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read()


class Browser:
    """One headless Chromium and one page, over the DevTools protocol."""

    def __init__(self, profile):
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             f"--user-data-dir={profile}", "--remote-debugging-port=0", "--window-size=1200,800", "about:blank"],
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
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
        self.next_id = 0

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
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url):
        self.call("Page.navigate", url=url)

    def wait(self, expression, what, seconds=15):
        limit = min(time.time() + seconds, DEADLINE)
        value = None
        while time.time() < limit:
            try:
                value = self.evaluate(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what} (last: {value!r})")

    def close(self):
        try:
            self.socket.close()
        finally:
            self.process.kill()
            self.process.wait()


def main():
    if not os.path.exists(CHROMIUM):
        print("browser: chromium is not installed", file=sys.stderr)
        return 1
    scratch = tempfile.mkdtemp(prefix="choreo-browser-")
    processes = []
    browser = None
    try:
        alpha, alpha_port = start(["target", "--port", "0"])
        beta, beta_port = start(["target", "--port", "0"])
        processes += [alpha, beta]
        arena = os.path.join(scratch, "arena.json")
        with open(arena, "w") as file:
            json.dump({
                "nodes": [
                    {"name": "alpha", "url": f"http://127.0.0.1:{alpha_port}/health", "ip": "10.0.0.1"},
                    {"name": "beta", "url": f"http://127.0.0.1:{beta_port}/health", "ip": "10.0.0.2"},
                ],
                "probe": {"interval": 0.3, "timeout": 0.25, "failureThreshold": 2, "successThreshold": 2},
                "round": {"stagger": 0.3},
            }, file)
        server, port = start(["serve", "--port", "0", "--data", os.path.join(scratch, "data"), "--arena", arena])
        processes.append(server)
        base = f"http://127.0.0.1:{port}"
        browser = Browser(os.path.join(scratch, "profile"))

        # The wallboard: both nodes up, then beta down without a reload.
        browser.open(f"{base}/arena")
        browser.wait("document.querySelectorAll('.card[data-status=up]').length === 2", "two cards up", 20)
        # Before the first round: an empty state, not a broken image.
        browser.wait(
            "!document.getElementById('round-empty').hidden && document.getElementById('round-frames').hidden",
            "the empty round state")
        browser.evaluate("window.loadedOnce = 'yes'")
        assert browser.wait(
            "document.querySelector('.card[data-node=alpha] .checked')?.textContent.match(/^checked \\d+ s ago$/)",
            "checked N s ago")
        went_down = time.time()
        http("POST", f"http://127.0.0.1:{beta_port}/control", json.dumps({"status": 503}))
        browser.wait("document.querySelector('.card[data-node=beta]')?.dataset.status === 'down'", "beta down", 20)
        red_after = time.time() - went_down
        # Down after 2 failed probes 0.3 s apart: red within one interval after that, plus the
        # event's way to the page (a generous second on a loaded machine).
        assert red_after <= 0.3 * 3 + 1.5, f"the card turned red after {red_after:.2f} s"
        assert browser.evaluate("window.loadedOnce") == "yes", "the wallboard reloaded"
        assert "status 503" in browser.evaluate("document.querySelector('.card[data-node=beta]').textContent")
        status, _ = http("POST", f"{base}/v1/arena/rounds", body="{}")
        assert status == 201, status
        size = browser.wait(
            "(() => { const i = document.getElementById('round-frames'); "
            "return i.dataset.round && i.complete && i.naturalWidth > 0 ? [i.naturalWidth, i.naturalHeight] : null })()",
            "the round drawn", 20)
        # Once the round is over, the champion's card follows its health again.
        browser.wait("document.getElementById('summary').textContent.includes('finished')", "the round finished", 20)
        browser.wait("document.querySelector('.card[data-node=alpha]').classList.contains('champion')", "the champion")
        # A finished round rests on its last frame (a still PNG), not a loop of the fight.
        browser.wait(
            "(() => { const i = document.getElementById('round-frames'); "
            "return i.dataset.phase === 'finished' && i.complete && i.naturalWidth > 0 })()",
            "the round resting on its last frame", 20)
        assert browser.evaluate("document.getElementById('round-empty').hidden")
        assert browser.evaluate("document.querySelector('.card[data-node=beta]').dataset.status") == "down"
        print(f"browser: wallboard live (red {red_after:.2f} s after the change), round drawn at {size[0]}x{size[1]}")

        # The wall: a laptop's 1280x720 and a 4K TV's 3840x2160, kiosk options in the URL. The
        # cards fill the width, nothing overflows, type grows with the screen, the screenshot
        # shows each card's status colour where its card is, and the round is drawn at the
        # scale its panel needs.
        status, _ = http("GET", f"{base}/arena?window=1h&theme=light&kiosk=1")
        assert status == 200
        try:
            http("GET", f"{base}/arena?windw=1h")
            raise AssertionError("a misspelt kiosk option was taken")
        except urllib.error.HTTPError as error:
            assert error.code == 422 and b'"window"' in error.read()
        http("POST", f"http://127.0.0.1:{beta_port}/control", json.dumps({"status": 200}))
        fonts = {}
        for width, height in [(1280, 720), (3840, 2160)]:
            browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                         mobile=False)
            browser.open(f"{base}/arena?window=1h&theme=light&kiosk=1")
            # At 3840 the page also has the debug server draw the round at scale 4, which keeps
            # its cores busy while the cards' data is asked for: the waits are bounded, not
            # timed, and allow for that on a shared machine.
            patience = 20 if width < 3840 else 60
            browser.wait("document.querySelectorAll('.card[data-status=up]').length === 2", f"two cards up at {width}",
                         patience)
            browser.wait("document.querySelectorAll('.card .spark').length === 2 && "
                         "[...document.querySelectorAll('.card .uptime')].every(e => e.textContent.endsWith('· 1h'))",
                         f"uptime for the window and sparklines at {width}", patience)
            # The round drawn first: the layout is measured as it stays.
            scale = browser.wait(
                "(() => { const i = document.getElementById('round-frames'); "
                "return i.complete && i.naturalWidth > 0 && i.dataset.scale ? parseFloat(i.dataset.scale) : null })()",
                f"the round at {width}", patience)
            layout = browser.evaluate("""(() => {
                const cards = [...document.querySelectorAll('.card')].map(c => {
                    const r = c.getBoundingClientRect();
                    return {left: r.left, right: r.right, top: r.top, height: r.height, inner: c.scrollWidth <= c.clientWidth};
                });
                const grid = document.getElementById('cards').getBoundingClientRect();
                return {cards, gridLeft: grid.left, gridRight: grid.right, inner: innerWidth,
                        scroll: document.documentElement.scrollWidth,
                        font: parseFloat(getComputedStyle(document.documentElement).fontSize),
                        title: getComputedStyle(document.querySelector('h1')).display,
                        background: getComputedStyle(document.documentElement).backgroundColor};
            })()""")
            assert layout["scroll"] <= layout["inner"], f"{width}: the page scrolls sideways ({layout})"
            assert all(card["inner"] for card in layout["cards"]), f"{width}: a card overflows"
            right = max(card["right"] for card in layout["cards"])
            # The grid spans the page (less its padding) and its cards stretch to its edge.
            assert layout["gridRight"] >= layout["inner"] - 1.5 * layout["font"], f"{width}: the grid does not fill the width"
            assert abs(right - layout["gridRight"]) < 2, f"{width}: the cards end at {right}, not at the grid's edge"
            assert layout["title"] == "none", "kiosk mode shows the title"
            assert layout["background"] == "rgb(242, 242, 247)", f"{width}: not the light theme ({layout['background']})"
            fonts[width] = layout["font"]
            shot = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
            shot_width, shot_height = int.from_bytes(shot[16:20], "big"), int.from_bytes(shot[20:24], "big")
            assert (shot_width, shot_height) == (width, height), (shot_width, shot_height)
            # CHOREO_SCREENSHOTS=DIR keeps them (the scratch directory is removed at the end).
            path = os.path.join(os.environ.get("CHOREO_SCREENSHOTS") or scratch, f"wallboard-{width}x{height}.png")
            with open(path, "wb") as file:
                file.write(shot)
            # Each card's left border, in a screenshot of where the layout puts it, is the green
            # of "up" (a clip of the screen around it, decoded here).
            for card in layout["cards"]:
                x = int(card["left"] + 2)
                y = int(card["top"] + card["height"] / 2)
                clip = browser.call("Page.captureScreenshot", format="png",
                                    clip={"x": x - 1, "y": y - 1, "width": 3, "height": 3, "scale": 1})
                pixels, _, _ = decode_png(base64.b64decode(clip["data"]))
                r, g, b = pixels(1, 1)
                assert abs(r - 0x34) < 24 and abs(g - 0xC7) < 24 and abs(b - 0x59) < 24, \
                    f"{width}: the card at {x},{y} is drawn {r},{g},{b}, not green"
            # A node that goes down turns red within the documented time, at this size too.
            went_down = time.time()
            http("POST", f"http://127.0.0.1:{beta_port}/control", json.dumps({"status": 503}))
            browser.wait("document.querySelector('.card[data-node=beta]')?.dataset.status === 'down'",
                         f"beta down at {width}", 20)
            red = time.time() - went_down
            assert red <= 0.3 * 3 + 1.5, f"{width}: red after {red:.2f} s"
            http("POST", f"http://127.0.0.1:{beta_port}/control", json.dumps({"status": 200}))
            browser.wait("document.querySelector('.card[data-node=beta]')?.dataset.status === 'up'",
                         f"beta up again at {width}", 20)
            print(f"browser: wall {width}x{height}: {len(layout['cards'])} cards filling {layout['gridRight'] - layout['gridLeft']:.0f} px, "
                  f"type {layout['font']:.1f} px, round at scale {scale}, red {red:.2f} s after the change, screenshot {path}")
        assert fonts[3840] >= 2 * fonts[1280], f"type does not grow with the screen: {fonts}"
        # Only the nodes asked for.
        browser.open(f"{base}/arena?nodes=alpha")
        browser.wait("document.querySelectorAll('.card').length === 1 && document.querySelector('.card').dataset.node === 'alpha'",
                     "only alpha")
        browser.call("Emulation.clearDeviceMetricsOverride")

        # The player: a stored scene, its events, Play and scrubbing.
        with open(os.path.join(ROOT, "examples", "overlapping-bounds.json")) as file:
            scene = file.read()
        status, body = http("POST", f"{base}/v1/scenes", scene)
        scene_id = json.loads(body)["id"]
        browser.open(f"{base}/?scene={scene_id}")
        browser.wait("document.querySelectorAll('#events li').length === 8", "8 events listed")
        browser.wait("document.getElementById('frame').naturalWidth > 0", "the first frame")
        assert browser.evaluate("document.querySelectorAll('#marks span').length") == 8
        first_frame = browser.evaluate("document.getElementById('frame').src")
        browser.evaluate("document.getElementById('play').click()")
        browser.wait("parseFloat(document.getElementById('clock').textContent) >= 0.5", "the clock running")
        browser.wait(f"document.getElementById('frame').src !== {json.dumps(first_frame)}", "the frame changing")
        browser.evaluate(
            "(() => { document.getElementById('play').click(); const s = document.getElementById('scrub'); "
            "s.value = 2; s.dispatchEvent(new Event('input')); })()")
        browser.wait("document.getElementById('frame').dataset.time === '2'", "the frame at 2 s")
        # A scene file uploaded with the file input is rendered (25 events for this one).
        document = browser.call("DOM.getDocument")
        file_input = browser.call("DOM.querySelector", nodeId=document["root"]["nodeId"], selector="#file")
        browser.call(
            "DOM.setFileInputFiles", nodeId=file_input["nodeId"],
            files=[os.path.join(ROOT, "examples", "watering-button.json")])
        browser.wait("document.getElementById('status').textContent.includes('25 events')", "the uploaded scene")
        browser.wait("document.getElementById('scene').value.includes('watering')", "the file shown")
        # A pasted scene with an error shows the problem's field.
        browser.evaluate(
            "(() => { document.getElementById('scene').value = '{\"layers\": [{\"id\": \"a\", \"opacity\": \"x\"}]}'; "
            "document.getElementById('run').click(); })()")
        browser.wait("document.getElementById('errors').textContent.includes('$.layers[0].opacity')", "the error")
        # A live session watched in the player: an input's events appear without a reload.
        status, body = http("POST", f"{base}/v1/sessions", scene)
        session_id = json.loads(body)["id"]
        browser.open(f"{base}/?session={session_id}")
        browser.wait("document.querySelectorAll('#events li').length === 8", "the session's 8 events")
        http("POST", f"{base}/v1/sessions/{session_id}/inputs", json.dumps({"at": 4, "do": [{"mark": "tapped"}]}))
        browser.wait("document.getElementById('events').textContent.includes('marker tapped')", "the input's marker", 10)
        print("browser: player plays, scrubs, opens a file, reports errors and watches a session")

        # The Swift / Objective-C tab: code imported and played, events linked to their lines.
        with open(os.path.join(ROOT, "examples", "code", "watering-button.swift")) as file:
            code = file.read()
        # Page.navigate returns before the new page loads: the old one is marked, and the new one
        # is the one without the mark.
        browser.evaluate("window.previousPage = true")
        browser.open(f"{base}/")
        browser.wait(
            "!window.previousPage && document.readyState === 'complete' && document.getElementById('tab-code') !== null",
            "the player")
        browser.evaluate(
            "(() => { document.getElementById('tab-code').click(); "
            f"document.getElementById('code').value = {json.dumps(code)}; "
            "document.getElementById('import').click(); })()")
        browser.wait("document.getElementById('status').textContent.includes('25 events')", "the imported scene played", 20)
        browser.wait("document.getElementById('frame').naturalWidth > 0", "the imported scene's first frame")
        linked = browser.evaluate("document.querySelectorAll('#events a.line').length")
        assert linked == 25, f"{linked} of 25 events link to a line"
        # The marker "press" comes from print("press") in press().
        press_line = next(i + 1 for i, line in enumerate(code.split("\n")) if 'print("press")' in line)
        marker = browser.evaluate(
            "[...document.querySelectorAll('#events li')].find((li) => li.textContent.includes('marker press'))"
            ".querySelector('a.line').dataset.line")
        assert int(marker) == press_line, f"the press marker links to line {marker}, not {press_line}"
        browser.evaluate(
            "[...document.querySelectorAll('#events li')].find((li) => li.textContent.includes('marker press'))"
            ".querySelector('a.line').click()")
        selected = browser.evaluate(
            "(() => { const c = document.getElementById('code'); return c.value.slice(c.selectionStart, c.selectionEnd); })()")
        assert 'print("press")' in selected, selected
        # A syntax error: no scene, the diagnostic at its line.
        browser.evaluate(
            "(() => { document.getElementById('code').value = 'UIView.animate(withDuration: {\\n'; "
            "document.getElementById('import').click(); })()")
        browser.wait(
            "document.querySelector('#source-diagnostics li.error a.line')?.dataset.line === '1'", "the syntax error")
        print("browser: the Swift tab imports code, plays it, and links events and diagnostics to their lines")

        # Objective-C pasted while Swift is chosen: the page says so and imports it as Objective-C.
        with open(os.path.join(ROOT, "examples", "code", "watering-button.m")) as file:
            objc = file.read()
        browser.evaluate(
            "(() => { document.getElementById('language').value = 'swift'; const c = document.getElementById('code'); "
            f"c.value = {json.dumps(objc)}; c.dispatchEvent(new Event('paste')); }})()")
        browser.wait("document.getElementById('language').value === 'objc'", "the language switched to Objective-C")
        notice = browser.wait(
            "(() => { const n = document.getElementById('language-notice'); return !n.hidden && n.textContent; })()",
            "the language notice")
        assert "Objective-C" in notice and "#import" in notice, notice
        browser.evaluate("document.getElementById('import').click()")
        browser.wait("document.getElementById('status').textContent.includes('25 events')",
                     "the Objective-C scene played", 20)
        assert not browser.evaluate("document.querySelector('#source-diagnostics li.error')"), "an error diagnostic"
        print(f"browser: pasted Objective-C is imported as Objective-C ({notice!r})")

        # An event of a block inside another block's completion links to the inner block's line.
        nested = "\n".join([
            "let box = UIView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))",
            "view.addSubview(box)",
            "UIView.animate(withDuration: 0.5, animations: {",
            "    box.alpha = 0",
            "}, completion: { _ in",
            "    UIView.animate(withDuration: 0.5, animations: {",
            "        box.alpha = 1",
            "    }, completion: { _ in",
            "        print(\"done\")",
            "    })",
            "})",
        ])
        browser.evaluate(
            "(() => { document.getElementById('language').value = 'swift'; const c = document.getElementById('code'); "
            f"c.value = {json.dumps(nested)}; c.dispatchEvent(new Event('paste')); "
            "document.getElementById('import').click(); })()")
        browser.wait("document.getElementById('status').textContent.includes('7 events')", "the nested blocks played", 20)
        links = browser.evaluate(
            "[...document.querySelectorAll('#events li')].map((li) => [li.textContent.split(' line ')[0], "
            "li.querySelector('a.line')?.dataset.line])")
        expected = [("animationDidStart box opacity", "3"), ("animationDidStop box opacity", "3"), ("animateCompleted", "3"),
                    ("animationDidStart box opacity", "6"), ("animationDidStop box opacity", "6"), ("animateCompleted", "6"),
                    ("marker done", "9")]
        got = [(text.split(" s ", 1)[1].split(" finished=")[0], line) for text, line in links]
        assert got == expected, f"events link to {got}"
        print("browser: an inner completion block's events link to the inner block's line")

        # The player on a phone, 390 x 844: one column no wider than the screen, the picture the
        # width of the screen less its margins, the frame drawn in it.
        browser.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=2, mobile=True)
        browser.evaluate("window.previousPage = true")
        browser.open(f"{base}/?scene={scene_id}")
        browser.wait("!window.previousPage && document.querySelectorAll('#events li').length === 8",
                     "the player on a phone")
        browser.wait("document.getElementById('frame').naturalWidth > 0", "the frame on a phone")
        phone = browser.evaluate("""(() => {
            const box = (id) => document.getElementById(id).getBoundingClientRect();
            return {inner: innerWidth, scroll: document.documentElement.scrollWidth,
                    picture: box('picture').width, stage: box('stage').width, input: box('input').width,
                    frame: box('frame').width, stageTop: box('stage').top, inputBottom: box('input').bottom,
                    listsTop: box('lists').top, stageBottom: box('stage').bottom};
        })()""")
        assert phone["inner"] == 390, phone
        assert phone["scroll"] <= phone["inner"], f"the page is {phone['scroll']} px wide on a 390 px phone"
        assert phone["picture"] >= 300 and phone["stage"] <= 390, f"the picture column is {phone['picture']} px"
        assert phone["frame"] > 0, phone
        assert phone["stageTop"] >= phone["inputBottom"] and phone["listsTop"] >= phone["stageBottom"], \
            f"the columns are not stacked: {phone}"
        shot = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
        path = os.path.join(os.environ.get("CHOREO_SCREENSHOTS") or scratch, "player-390x844.png")
        with open(path, "wb") as file:
            file.write(shot)
        browser.call("Emulation.clearDeviceMetricsOverride")
        print(f"browser: player on a 390x844 phone: page {phone['scroll']} px wide, picture {phone['picture']:.0f} px, "
              f"screenshot {path}")
        return 0
    except AssertionError as failure:
        print(f"browser: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        if browser:
            browser.close()
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
