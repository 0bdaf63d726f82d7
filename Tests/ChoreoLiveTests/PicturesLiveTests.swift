import ChoreoJSON
import ChoreoRaster
import ChoreoTestSupport
import Foundation
import Testing

/// Pictures, pages and badges against the real binary, and the pages in a real browser
/// (headless Chromium): docs/pictures.md.
@Suite(.serialized) struct PicturesLiveTests {
    let scratch = Scratch("choreo-pictures")

    /// PNG bytes decoded (libpng through Cairo): size and straight RGBA pixels.
    static func decode(_ png: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8]) {
        CairoCanvas.decodePNG(png) ?? (0, 0, [])
    }

    static func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            types.append(String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }

    static let card =
        ##"{"canvas": {"width": 200, "height": 120, "background": "#FFFFFF"}, "layers": [{"id": "card", "frame": [20, 20, 80, 60], "backgroundColor": "#007AFF", "cornerRadius": 8}], "script": [{"at": 0, "do": [{"add": {"type": "basic", "keyPath": "position.x", "toValue": 140, "duration": 1}, "layer": "card"}]}]}"##

    /// PNG, APNG and filmstrip from the render route, a stored scene and the CLI: the same bytes,
    /// the right sizes, and errors for what a picture cannot be.
    @Test func picturesFromEveryRoute() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let png = try http.request("POST", "/v1/render?format=png&time=0.5&scale=2", body: Self.card)
        #expect(png.status == 200 && png.headers["content-type"] == "image/png")
        let image = Self.decode(png.body)
        #expect(image.width == 400 && image.height == 240)
        // Half-way, the card's centre is at x = 100 (its right edge at 140), drawn at twice the points.
        let centre = ((100 * 400) + 200) * 4
        #expect(Array(image.rgba[centre..<(centre + 4)]) == [0, 122, 255, 255])
        let beyond = ((100 * 400) + 300) * 4
        #expect(Array(image.rgba[beyond..<(beyond + 4)]) == [255, 255, 255, 255])
        #expect(try http.request("POST", "/v1/render?format=png&time=0.5&scale=2", body: Self.card).body == png.body)

        let stored = try http.request("POST", "/v1/scenes", body: Self.card)
        guard case .object(let object) = try JSONParser.parse(stored.body), case .string(let id)? = object["id"]
        else { throw LiveError("no id") }
        let same = try http.request("GET", "/v1/scenes/\(id)/frames?format=png&time=0.5&scale=2")
        #expect(same.body == png.body)

        let apng = try http.request("POST", "/v1/render?format=apng&fps=10", body: Self.card)
        #expect(apng.status == 200 && apng.headers["content-type"] == "image/apng")
        let types = Self.chunkTypes(apng.body)
        #expect(types.filter { $0 == "fcTL" }.count == 11)
        #expect(types.prefix(4) == ["IHDR", "acTL", "fcTL", "IDAT"] && types.last == "IEND")

        let strip = try http.request("POST", "/v1/render?format=filmstrip&fps=4&columns=5", body: Self.card)
        #expect(strip.status == 200 && strip.headers["content-type"] == "image/png")
        let sheet = Self.decode(strip.body)
        #expect(sheet.width == 5 * 204 && sheet.height == 142)

        let out = scratch.file("frame.png")
        let file = scratch.file("card.json")
        try Self.card.write(toFile: file, atomically: true, encoding: .utf8)
        let (code, _, err) = try runChoreo([
            "render", file, "--format", "png", "--time", "0.5", "--scale", "2", "--out", out,
        ])
        #expect(code == 0, "\(err)")
        #expect(FileManager.default.contents(atPath: out).map(Array.init) == png.body)

        for (query, field) in [
            ("format=png&times=0,1", "query.times"), ("format=png&layers=card", "query.layers"),
            ("format=json&scale=2", "query.scale"), ("format=png&scale=9", "query.scale"),
            ("format=apng&fps=1000&end=3600", "query.fps"), ("format=gif", "query.format"),
        ] {
            let refused = try http.request("POST", "/v1/render?\(query)", body: Self.card)
            #expect(refused.status == 422, "\(query)")
            #expect(refused.text.contains("\"\(field)\""), "\(query): \(refused.text)")
        }
    }

    /// A picture's cost is decided before it is drawn: path elements and particles per frame
    /// times the frames; and its working memory is held against `--max-render-memory`.
    @Test func pictureCostAndMemoryAreBounded() throws {
        let server = try ServerProcess(arguments: ["--max-render-memory", "8388608"])
        let http = RawHTTP(port: server.port)
        let segments = (0..<60_000).map { "L\($0 % 500) \($0 / 500)" }.joined(separator: " ")
        let path =
            ##"{"canvas": {"width": 100, "height": 100}, "layers": [{"id": "s", "type": "shape", "path": "M0 0 \##(segments)", "strokeColor": "#000000"}]}"##
        let refused = try http.request("POST", "/v1/render?format=apng&fps=30&end=60", body: path)
        #expect(refused.status == 422)
        #expect(refused.text.contains("\"query.fps\"") && refused.text.contains("drawing steps"), "\(refused.text)")
        #expect(try http.request("POST", "/v1/render?format=png&time=0", body: path).status == 200)
        // 1,600 × 960 pixels need about 25 MB to draw: more than this server ever draws at once.
        let never = try http.request(
            "POST", "/v1/render?format=png&time=0.5&scale=4&width=400&height=240", body: Self.card)
        #expect(never.status == 422 && never.text.contains("--max-render-memory"), "\(never.text)")
        #expect(try http.request("POST", "/v1/render?format=png&time=0.5", body: Self.card).status == 200)
    }

    /// Pictures in flight share the render memory: an animated PNG whose client reads nothing
    /// holds its share, so another that does not fit beside it is 503 with Retry-After, and
    /// fits once the first client has gone.
    @Test func pictureMemoryIsSharedAndReturned() throws {
        // 200 × 120 points at scale 2: 96,000 pixels, about 1.5 MB each to draw.
        let server = try ServerProcess(arguments: ["--max-render-memory", "2097152"])
        let http = RawHTTP(port: server.port)
        let long = Self.card.replacingOccurrences(of: #""duration": 1"#, with: #""duration": 600"#)
        let holder = try http.start("/v1/render?format=apng&fps=10&scale=2", body: long)
        var first = [UInt8](repeating: 0, count: 1024)
        let received = recv(holder, &first, first.count, 0)
        #expect(
            received > 0 && String(decoding: first.prefix(max(received, 0)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        let busy = try http.request("POST", "/v1/render?format=png&time=0.5&scale=2", body: Self.card)
        #expect(busy.status == 503 && busy.headers["retry-after"] == "1", "\(busy.status) \(busy.text)")
        close(holder)
        var after = 0
        for _ in 0..<100 where after != 200 {
            after = try http.request("POST", "/v1/render?format=png&time=0.5&scale=2", body: Self.card).status
            if after != 200 { usleep(50_000) }
        }
        #expect(after == 200)
    }

    /// CORS is off by default; `--cors-origin` lets the pages of that origin read the answers
    /// (event streams included) and answers their preflights; other origins get no header.
    @Test func crossOriginRequests() throws {
        let off = try ServerProcess()
        let plain = try RawHTTP(port: off.port).request(
            "POST", "/v1/render?times=0", body: #"{"layers":[{"id":"a"}]}"#,
            headers: ["Origin": "https://dashboard.example"])
        #expect(plain.status == 200 && plain.headers["access-control-allow-origin"] == nil)
        let options = try RawHTTP(port: off.port).request("OPTIONS", "/v1/render")
        #expect(options.status == 204 && options.headers["allow"] == "POST, OPTIONS")

        let server = try ServerProcess(arguments: [
            "--cors-origin", "https://dashboard.example", "--cors-origin", "https://ops.example",
        ])
        let http = RawHTTP(port: server.port)
        let preflight = try http.request(
            "OPTIONS", "/v1/scenes/scn_x/frames",
            headers: ["Origin": "https://ops.example", "Access-Control-Request-Method": "GET"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "https://ops.example")
        #expect(preflight.headers["vary"] == "Origin")
        #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS")
        #expect(preflight.headers["access-control-allow-headers"]?.contains("Authorization") == true)
        let render = try http.request(
            "POST", "/v1/render?times=0", body: #"{"layers":[{"id":"a"}]}"#,
            headers: ["Origin": "https://dashboard.example"])
        #expect(render.status == 200 && render.headers["access-control-allow-origin"] == "https://dashboard.example")
        let stranger = try http.request(
            "POST", "/v1/render?times=0", body: #"{"layers":[{"id":"a"}]}"#, headers: ["Origin": "https://evil.example"]
        )
        #expect(stranger.headers["access-control-allow-origin"] == nil)
        #expect(try http.request("OPTIONS", "/nowhere").status == 404)
        let (code, _, err) = try runChoreo(["serve", "--cors-origin", "dashboard.example"])
        #expect(code == 2 && err.contains("--cors-origin"))
    }

    /// The player in Chromium: a stored scene opened by `/?scene=`, its events listed and
    /// marked, and its first frame drawn from the server.
    @Test(.enabled(if: Chromium.available)) func playerInABrowser() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        let scene = try String(contentsOfFile: Self.examples + "/overlapping-bounds.json", encoding: .utf8)
        let stored = try http.request("POST", "/v1/scenes", body: scene)
        guard case .object(let object) = try JSONParser.parse(stored.body), case .string(let id)? = object["id"]
        else { throw LiveError("no id") }
        let page = try http.request("GET", "/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        let dom = try Chromium().dom("http://127.0.0.1:\(server.port)/?scene=\(id)")
        #expect(dom.components(separatedBy: #"<li class="event">"#).count - 1 == 8, "\(dom.suffix(3000))")
        #expect(dom.contains("animateCompleted shrink finished=true"))
        #expect(dom.contains(#"id="frame""#) && dom.contains("src=\"blob:"))
        #expect(dom.contains("3 s, 8 events, 0 diagnostics"))
    }

    /// Badges and the round's pictures against an arena of real targets (the wallboard itself is
    /// driven in Chromium by Tests/live/browser_run.py); Chromium draws the badge.
    @Test(.enabled(if: Chromium.available)) func badgesAndRoundPictures() throws {
        let alpha = try ServerProcess.target(["--latency", "5ms"])
        let beta = try ServerProcess.target(["--status", "503"])
        let file = try scratch.write(
            "arena.json", ArenaLiveTests.configuration([("alpha", alpha.port), ("beta", beta.port)]))
        let server = try ServerProcess(arguments: ["--arena", file])
        let http = RawHTTP(port: server.port)
        _ = try ArenaLiveTests.waitFor(http, ["alpha": "up", "beta": "down"])
        #expect(try http.request("POST", "/v1/arena/rounds", body: "{}").status == 201)
        let frames = try http.request("GET", "/v1/arena/rounds/current/frames?format=png&time=0.5")
        #expect(frames.status == 200 && Self.decode(frames.body).width > 0)

        let badge = try http.request("GET", "/v1/arena/badge.svg")
        #expect(badge.status == 200 && badge.headers["content-type"] == "image/svg+xml")
        #expect(badge.text.contains("1/2 up") && badge.text.contains("#fe7d37"))
        let up = try http.request("GET", "/v1/arena/nodes/alpha/badge.svg")
        #expect(up.text.contains(">alpha<") && up.text.contains("#4c1"))
        let down = try http.request("GET", "/v1/arena/nodes/beta/badge.svg")
        #expect(down.text.contains("down") && down.text.contains("#e05d44"))
        #expect(try http.request("GET", "/v1/arena/nodes/gamma/badge.svg").status == 404)
        // Chromium draws the badge (a valid SVG image).
        let shot = try Chromium().screenshot(
            "http://127.0.0.1:\(server.port)/v1/arena/badge.svg", width: 200, height: 40)
        #expect(Self.decode(shot).width == 200)
    }

    /// The animated PNG plays in Chromium: it decodes it to the canvas size (the test page is a
    /// file, another origin: the server lets any origin read).
    @Test(.enabled(if: Chromium.available)) func animatedPNGDecodesInABrowser() throws {
        let server = try ServerProcess(arguments: ["--cors-origin", "*"])
        let page = scratch.file("apng.html")
        let html = """
            <!doctype html><title>loading</title><img id="i" onload="document.title = 'loaded ' + this.naturalWidth + 'x' + this.naturalHeight" onerror="document.title = 'failed'">
            <script>
            fetch("http://127.0.0.1:\(server.port)/v1/render?format=apng&fps=10", {method: "POST", headers: {"Content-Type": "application/json"}, body: \(Self.jsString(Self.card))})
              .then(r => r.blob()).then(b => { document.getElementById("i").src = URL.createObjectURL(b); });
            </script>
            """
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        let dom = try Chromium().dom("file://\(page)", budget: 5_000)
        #expect(dom.contains("<title>loaded 200x120</title>"), "\(dom.prefix(500))")
    }

    /// choreo's frame and the same presentation values drawn by Chromium as HTML and CSS
    /// (absolutely positioned boxes with transform, opacity, border-radius, border and
    /// background) differ by at most 2 levels per channel on average.
    @Test(.enabled(if: Chromium.available)) func framesMatchTheBrowser() throws {
        let server = try ServerProcess()
        let http = RawHTTP(port: server.port)
        var layers: [String] = []
        let colors = ["#FF3B30", "#34C759", "#007AFF", "#FF9500", "#AF52DE", "#5AC8FA"]
        for i in 0..<12 {
            let x = 20 + (i % 4) * 95
            let y = 20 + (i / 4) * 90
            let angle = Double(i) * 0.17 - 0.9
            layers.append(
                ##"{"id": "b\##(i)", "frame": [\##(x), \##(y), \##(50 + i * 3), \##(40 + (i % 3) * 10)], "backgroundColor": "\##(colors[i % 6])", "cornerRadius": \##(i % 3 * 6), "borderWidth": \##(i % 4 == 0 ? 3 : 0), "borderColor": "#1C1C1E", "opacity": \##(i % 2 == 0 ? 1 : 0.6), "transform": {"rotate": \##(angle), "scale": [\##(0.8 + Double(i % 3) * 0.15), 1, 1]}}"##
            )
        }
        let scene =
            ##"{"canvas": {"width": 400, "height": 300, "background": "#FFFFFF"}, "layers": [\##(layers.joined(separator: ", "))]}"##
        let png = try http.request("POST", "/v1/render?format=png&time=0", body: scene)
        #expect(png.status == 200, "\(png.text)")
        let values = try http.request(
            "POST",
            "/v1/render?times=0&properties=position,bounds,anchorPoint,transform,opacity,cornerRadius,borderWidth,borderColor,backgroundColor",
            body: scene)
        guard case .object(let document) = try JSONParser.parse(values.body),
            case .array(let frames)? = document["frames"],
            case .object(let frame)? = frames.first, case .object(let presented)? = frame["layers"]
        else { throw LiveError("no frame: \(values.text)") }
        func numbers(_ value: JSONValue?) -> [Double] {
            guard case .array(let items)? = value else { return [] }
            return items.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
        }
        func number(_ value: JSONValue?, _ otherwise: Double) -> Double {
            if case .number(let n)? = value { return n }
            return otherwise
        }
        func css(_ color: [Double]) -> String {
            "rgba(\(Int((color[0] * 255).rounded())), \(Int((color[1] * 255).rounded())), \(Int((color[2] * 255).rounded())), \(color[3]))"
        }
        var boxes = ""
        for i in 0..<12 {
            guard case .object(let layer)? = presented["b\(i)"] else { throw LiveError("no layer b\(i)") }
            let position = numbers(layer["position"])
            let bounds = numbers(layer["bounds"])
            let anchor = numbers(layer["anchorPoint"])
            let transform = numbers(layer["transform"]).map { String($0) }.joined(separator: ",")
            let border = number(layer["borderWidth"], 0)
            boxes += """
                <div style="position:absolute;box-sizing:border-box;left:\(position[0] - anchor[0] * bounds[2])px;top:\(position[1] - anchor[1] * bounds[3])px;width:\(bounds[2])px;height:\(bounds[3])px;transform-origin:\(anchor[0] * 100)% \(anchor[1] * 100)%;transform:matrix3d(\(transform));opacity:\(number(layer["opacity"], 1));border-radius:\(number(layer["cornerRadius"], 0))px;background:\(css(numbers(layer["backgroundColor"])));border:\(border)px solid \(border > 0 ? css(numbers(layer["borderColor"])) : "transparent")"></div>

                """
        }
        let page = scratch.file("boxes.html")
        try """
        <!doctype html><html><body style="margin:0;background:#fff;width:400px;height:300px;position:relative;overflow:hidden">
        \(boxes)</body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        let shot = try Chromium().screenshot("file://\(page)", width: 400, height: 300)
        if let keep = ProcessInfo.processInfo.environment["CHOREO_KEEP_COMPARISON"] {
            _ = FileManager.default.createFile(atPath: keep + "/browser.png", contents: Data(shot))
            _ = FileManager.default.createFile(atPath: keep + "/choreo.png", contents: Data(png.body))
        }
        let browser = Self.decode(shot)
        let ours = Self.decode(png.body)
        #expect(browser.width == 400 && browser.height == 300 && ours.width == 400 && ours.height == 300)
        guard browser.rgba.count == ours.rgba.count else { return }
        var total = 0
        for i in stride(from: 0, to: ours.rgba.count, by: 4) {
            for c in 0..<3 { total += abs(Int(ours.rgba[i + c]) - Int(browser.rgba[i + c])) }
        }
        let mean = Double(total) / Double(400 * 300 * 3)
        #expect(mean <= 2, "mean difference \(mean) levels per channel")
    }

    static var examples: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples").path
    }

    static func jsString(_ text: String) -> String {
        var writer = ""
        writer += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": writer += "\\\""
            case "\\": writer += "\\\\"
            default: writer.unicodeScalars.append(scalar)
            }
        }
        return writer + "\""
    }
}
