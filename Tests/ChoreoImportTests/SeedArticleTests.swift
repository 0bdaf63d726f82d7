import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoService
import Foundation
import Testing

@testable import ChoreoEngine

/// The code of the articles the project was made from (`../shared/seeds/`, beside the
/// repository), as a reader pastes it: each code block as printed, found in the article's text
/// by where its prose stops and starts again, with nothing added but the macros the article
/// uses and defines elsewhere. Each imports through the import helper, as `choreo import` and
/// the player run it, plays what the article says it does, and is drawn inside the picture.
@Suite struct SeedArticleTests {
    static let seeds = ImportEquivalenceTests.root.deletingLastPathComponent().appendingPathComponent("shared/seeds")

    /// A code block: its first line in the article, and its text.
    struct Block {
        var line: Int
        var text: String
    }

    /// The article whose file name begins with `number`.
    static func article(_ number: String) throws -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: seeds.path)) ?? []
        let name = try #require(
            names.first { $0.hasPrefix(number + "_") && $0.hasSuffix(".txt") },
            "the seed articles are read from \(seeds.path) (the repository's ../shared/seeds): article \(number) is not there"
        )
        return try String(contentsOf: seeds.appendingPathComponent(name), encoding: .utf8)
    }

    /// A line of prose: Chinese outside the code's string literals and comments, a bullet, a rule.
    static func isProse(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("•") || trimmed == "---" { return true }
        var code = ""
        var inString = false
        var previous: Character = " "
        for character in trimmed {
            if inString {
                if character == "\"" && previous != "\\" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/" && previous == "/" {
                break
            } else {
                code.append(character)
            }
            previous = character
        }
        return code.unicodeScalars.contains { $0.value >= 0x2E80 }
    }

    /// The article's code blocks in order: the runs of lines between its prose.
    static func blocks(_ number: String) throws -> [Block] {
        let lines = try article(number).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var current: [(Int, String)] = []
        func close() {
            while let last = current.last, last.1.trimmingCharacters(in: .whitespaces).isEmpty { current.removeLast() }
            while let first = current.first, first.1.trimmingCharacters(in: .whitespaces).isEmpty {
                current.removeFirst()
            }
            if let first = current.first {
                blocks.append(Block(line: first.0, text: current.map(\.1).joined(separator: "\n")))
            }
            current = []
        }
        for (index, line) in lines.enumerated() {
            if isProse(line) { close() } else { current.append((index + 1, line)) }
        }
        close()
        return blocks
    }

    /// The block that has `text`.
    static func block(_ number: String, with text: String) throws -> Block {
        // Copied from a web page, the article's spaces may be no-break spaces.
        try #require(
            try blocks(number).first { $0.text.replacingOccurrences(of: "\u{00A0}", with: " ").contains(text) },
            "no code block of article \(number) has \(text)")
    }

    /// `source` imported by the import helper, as the CLI and the player import it.
    static func imported(_ source: String, objc: Bool) throws -> ImportResult {
        let request = ImportRequest(
            source: Array(source.utf8), language: objc ? .objc : .swift, name: objc ? "article.m" : "article.swift")
        return try ImportService.run(request, helpers: ImportHelpers(path: ImportHelpers.besideExecutable()))
    }

    /// An imported scene, run, and sampled as the picture draws it.
    struct Played {
        var result: ImportResult
        var timeline: Timeline
        var canvas: (width: Double, height: Double)

        func layer(_ id: String) throws -> Int {
            try #require(timeline.layers.firstIndex { $0.id == id }, "no layer \(id)")
        }

        func value(_ id: String, _ keyPath: String, at t: Double) throws -> ChoreoEngine.Value {
            let layer = try layer(id)
            let path = try #require(KeyPath(keyPath))
            return timeline.presentationValue(
                layer: layer, keyPath: path, at: t, map: timeline.timeMap(of: layer, at: t))
        }

        func scale(_ id: String, at t: Double) throws -> Double {
            guard case .transform(let m) = try value(id, "transform", at: t) else { throw Unexpected() }
            return (m.m11 * m.m11 + m.m12 * m.m12).squareRoot()
        }

        func translation(_ id: String, at t: Double) throws -> Double {
            guard case .transform(let m) = try value(id, "transform", at: t) else { throw Unexpected() }
            return m.m41
        }

        func number(_ id: String, _ keyPath: String, at t: Double) throws -> Double {
            guard case .number(let n) = try value(id, keyPath, at: t) else { throw Unexpected() }
            return n
        }

        func point(_ id: String, _ keyPath: String, at t: Double) throws -> Point {
            guard case .point(let p) = try value(id, keyPath, at: t) else { throw Unexpected() }
            return p
        }

        func width(_ id: String, at t: Double) throws -> Double {
            guard case .rect(let r) = try value(id, "bounds", at: t) else { throw Unexpected() }
            return r.size.x
        }

        var marks: [String] {
            timeline.events.compactMap { if case .marker(let name) = $0.kind { name } else { nil } }
        }

        /// Every layer of the scene is inside the picture at `t` (its frame, in the canvas's space).
        func drawnInside(at t: Double) throws {
            for (index, layer) in timeline.layers.enumerated() where !layer.id.isEmpty {
                let path = try #require(KeyPath("position"))
                guard
                    case .point(let p) = timeline.presentationValue(
                        layer: index, keyPath: path, at: t, map: timeline.timeMap(of: index, at: t))
                else { continue }
                #expect(
                    p.x >= 0 && p.x <= canvas.width && p.y >= 0 && p.y <= canvas.height,
                    "\(layer.id) is at (\(p.x), \(p.y)) at \(t) s, outside the \(canvas.width) × \(canvas.height) picture"
                )
            }
            let outside = result.diagnostics.filter { $0.message.contains("outside the") }
            #expect(outside.isEmpty, "\(outside.map(\.message))")
        }
    }

    struct Unexpected: Error {}

    static func play(_ source: String, objc: Bool) throws -> Played {
        let result = try imported(source, objc: objc)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map { "\($0.position.line):\($0.position.column): \($0.message)" })")
        let scene = try #require(result.scene)
        var writer = JSONWriter()
        writer.value(scene)
        let (decoded, _) = try SceneDecoder.decode(bytes: writer.bytes)
        let timeline = try SceneRunner.run(decoded, horizon: 10)
        let canvas = try #require(decoded.canvas)
        return Played(result: result, timeline: timeline, canvas: (canvas.width, canvas.height))
    }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 0.01) -> Bool { abs(a - b) <= tolerance }

    // MARK: 001 — UIView animation blocks, springs, transitions, keyframes

    @Test func article001WithoutAnimationIsAtOnceWhereItEnds() throws {
        let played = try Self.play(
            try Self.block("001", with: "scaleX: 0.8, y: 0.8)\nstatusLabel.alpha = 0").text, objc: false)
        #expect(Self.close(try played.scale("waterButton", at: 0), 0.8))
        #expect(try played.number("statusLabel", "opacity", at: 0) == 0)
        #expect(played.result.diagnostics.contains { $0.message.hasPrefix("nothing in this code animates") })
        try played.drawnInside(at: 0)
    }

    @Test func article001PressesTheButtonThenBringsItBackAndTheTextIn() throws {
        let played = try Self.play(try Self.block("001", with: "animate(withDuration: 0.2").text, objc: false)
        #expect(Self.close(try played.scale("waterButton", at: 0.2), 0.85))
        let halfway = try played.scale("waterButton", at: 0.1)
        #expect(halfway < 1 && halfway > 0.85)
        // The completion's animation: back to its size over 0.35 s, the text turning green.
        #expect(try played.scale("waterButton", at: 0.3) > 0.85)
        #expect(Self.close(try played.scale("waterButton", at: 0.55), 1))
        let text = sceneText(played.result.scene)
        #expect(text.contains(#""statusLabel":{"opacity":1,"foregroundColor":"systemGreen"}"#), "\(text)")
        try played.drawnInside(at: 0.1)
    }

    @Test func article001SpringsTheLabelOutWithABounce() throws {
        let played = try Self.play(try Self.block("001", with: "usingSpringWithDamping: 0.55").text, objc: false)
        #expect(Self.close(try played.scale("statusLabel", at: 0), 0.5))
        #expect(try played.number("statusLabel", "opacity", at: 0) == 0)
        // Damping 0.55: past its size once or twice, then still at 1 by the end.
        let peak = stride(from: 0.0, through: 0.6, by: 0.01).map { (try? played.scale("statusLabel", at: $0)) ?? 0 }
            .max()
        #expect((peak ?? 0) > 1.02, "\(peak ?? 0)")
        #expect(Self.close(try played.scale("statusLabel", at: 1.5), 1))
        #expect(Self.close(try played.number("statusLabel", "opacity", at: 1.5), 1))
        try played.drawnInside(at: 0.3)
    }

    @Test func article001CrossDissolvesTheTextAndPlaysThreeKeyframes() throws {
        let block = try Self.block("001", with: "UIView.animateKeyframes(withDuration: 1.1")
        #expect(block.text.contains("UIView.transition(with: statusLabel"))
        let played = try Self.play(block.text, objc: false)
        let text = sceneText(played.result.scene)
        #expect(
            text.contains(#""transition":{"layer":"statusLabel","duration":0.3,"options":["transitionCrossDissolve"]"#))
        // Three keyframes in 1.1 s (UIKit eases the whole): pressed to 0.8, grown to 1.15, back.
        let scales = try stride(from: 0.0, through: 1.1, by: 0.005).map { try played.scale("waterButton", at: $0) }
        let pressed = try #require(scales.min())
        let grown = try #require(scales.max())
        #expect(Self.close(pressed, 0.8), "\(pressed)")
        #expect(Self.close(grown, 1.15), "\(grown)")
        #expect(try #require(scales.firstIndex(of: pressed)) < scales.firstIndex(of: grown)!)
        #expect(Self.close(try played.scale("waterButton", at: 1.1), 1))
        try played.drawnInside(at: 0.825)
    }

    @Test func article001PrintsTheEndAtOnceWhileTheViewFlies() throws {
        let played = try Self.play(try Self.block("001", with: "print(self.logo.center)").text, objc: false)
        #expect(played.marks == ["(400.0, 300.0)"])
        #expect(try played.point("logo", "position", at: 2) == Point(400, 300))
        let halfway = try played.point("logo", "position", at: 1)
        #expect(halfway.x > 70 && halfway.x < 400)
        try played.drawnInside(at: 1)
    }

    @Test func article001BouncesTheRowsIconThenDissolvesTheRow() throws {
        let played = try Self.play(try Self.block("001", with: "cellForRow(at: indexPath)").text, objc: false)
        // A row of the table, 44 points high, with its icon.
        let text = sceneText(played.result.scene)
        #expect(text.contains(#""id":"tableViewRow0","frame":[0,0,375,44]"#), "\(text)")
        #expect(Self.close(try played.scale("cellIcon", at: 0.5), 1.4, 0.05))
        #expect(Self.close(try played.scale("cellIcon", at: 0.8), 1))
        #expect(text.contains(#""transition":{"layer":"tableView","duration":0.25"#), "\(text)")
        #expect(played.result.diagnostics.contains { $0.message.hasPrefix("reloadRows reloads the rows' contents") })
        try played.drawnInside(at: 0.5)
    }

    // MARK: 002 — UIView animation over a layer; model and presentation

    @Test func article002TheButtonsActionGrowsTheViewAndLogsFinished() throws {
        let block = try Self.block("002", with: "- (void)btnClick:(id)sender")
        let played = try Self.play(block.text, objc: true)
        #expect(played.result.diagnostics.contains { $0.message.hasPrefix("btnClick: is a control's action") })
        #expect(Self.close(try played.width("testView", at: 0), 100))
        let halfway = try played.width("testView", at: 0.5)
        #expect(halfway > 100 && halfway < 200)
        #expect(Self.close(try played.width("testView", at: 1), 200))
        // NSLog(@"%d", finished) prints 1.
        #expect(played.marks == ["1"])
        try played.drawnInside(at: 1)
    }

    @Test func article002TheModelIsAtTheEndAsSoonAsTheBlockRuns() throws {
        let played = try Self.play(try Self.block("002", with: "} completion:nil];").text, objc: true)
        #expect(Self.close(try played.width("testView", at: 0), 100))
        #expect(Self.close(try played.width("testView", at: 1), 200))
        let text = sceneText(played.result.scene)
        #expect(text.contains(#""changes":{"testView":{"bounds":[0,0,200,200]}}"#), "\(text)")
    }

    // MARK: 003 — the three-ball loader

    /// The macros the loader's article uses and defines in its project, not in the article.
    static let loaderMacros = "#define BALL_RADIUS 20\n#define WIDTH 375\n#define HEIGHT 667\n"

    @Test func article003TheBallsGoRoundTheCircleAsPrinted() throws {
        let parts = [
            try Self.block("003", with: "CGFloat centerPointY"), try Self.block("003", with: "// 2.1"),
            try Self.block("003", with: "//2.2"), try Self.block("003", with: "//2.3"),
        ]
        let source = Self.loaderMacros + parts.map(\.text).joined(separator: "\n")
        let played = try Self.play(source, objc: true)
        // The lines that lost their spaces in print are read as written, each said at its name.
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let lost = played.result.diagnostics.filter { $0.message.contains("run together") }
        #expect(lost.count >= 8, "\(lost.map(\.message))")
        for warning in lost {
            #expect(warning.severity == .warning)
            let line = lines[warning.position.line - 1]
            let name = String(warning.message.prefix { $0 != " " })
            let column = try #require(line.range(of: name)).lowerBound.utf16Offset(in: line) + 1
            #expect(warning.position.column == column, "\(warning.position): \(name) in \(line)")
        }
        // Balls 1 and 3 go round the circle of radius 20 about the middle ball's centre in
        // 1.4 s, ease in, ease out; ball 2 stays.
        let centre = Point(187, 323)
        for ball in ["ball_1", "ball_3"] {
            for t in stride(from: 0.0, through: 1.4, by: 0.1) {
                let p = try played.point(ball, "position", at: t)
                let r = ((p.x - centre.x) * (p.x - centre.x) + (p.y - centre.y) * (p.y - centre.y)).squareRoot()
                #expect(Self.close(r, 20, 0.5), "\(ball) at \(t): \(p)")
            }
        }
        let ball1Start = try played.point("ball_1", "position", at: 0)
        let ball1Half = try played.point("ball_1", "position", at: 0.7)
        #expect(Self.close(ball1Start.x, 167, 0.5) && Self.close(ball1Half.x, 207, 0.5), "\(ball1Start) \(ball1Half)")
        // Ball 3 starts where ball 1 is halfway.
        #expect(Self.close(try played.point("ball_3", "position", at: 0).x, 207, 0.5))
        #expect(try played.point("ball_2", "position", at: 0.7) == played.point("ball_2", "position", at: 0))
        try played.drawnInside(at: 0.7)
    }

    @Test func article003TheBallsGoOutShrunkThenBack() throws {
        let block = try Self.block("003", with: "completion:^(BOOL finished)")
        let played = try Self.play(Self.loaderMacros + block.text, objc: true)
        // 0.1 s of delay, 0.3 s out to 0.7 and 20 points aside; 0.1 s, 0.3 s back.
        #expect(Self.close(try played.scale("ball_1", at: 0.1), 1))
        #expect(Self.close(try played.scale("ball_1", at: 0.4), 0.7))
        #expect(Self.close(try played.translation("ball_1", at: 0.4), -20))
        #expect(Self.close(try played.translation("ball_3", at: 0.4), 20))
        #expect(Self.close(try played.scale("ball_2", at: 0.4), 0.7))
        #expect(Self.close(try played.scale("ball_1", at: 0.8), 1))
        #expect(Self.close(try played.translation("ball_3", at: 0.8), 0))
        try played.drawnInside(at: 0.4)
    }
}

/// A printed line that lost its spaces is read with them put back when clang accepts it so,
/// and is an error naming the line as written when clang refuses that too.
@Suite struct LostSpacesTests {
    @Test func aLineThatStillDoesNotParseIsAnErrorWithTheLineAsItsFix() throws {
        let result = Importer.run(
            ChoreoObjCImport.ObjCFrontEnd.lower(
                """
                UIView *box = [[UIView alloc] initWithFrame:CGRectMake(20, 20, 80, 80)];
                [self.view addSubview:box];
                UIBezierPath*path=[UIBezierPathbezierPath] +;
                """), options: ImportOptions())
        let error = try #require(result.diagnostics.first { $0.message.contains("run together") })
        #expect(error.severity == .error)
        #expect(error.position.line == 3 && error.position.column == 20, "\(error.position)")
        #expect(error.fix == "write UIBezierPath*path=[UIBezierPath bezierPath] +;")
    }

    @Test func aRepairedLinesColumnsAreThePrintedOnes() throws {
        let result = Importer.run(
            ChoreoObjCImport.ObjCFrontEnd.lower(
                """
                UIView *box = [[UIView alloc] initWithFrame:CGRectMake(20, 20, 80, 80)];
                [self.view addSubview:box];
                [boxaddSubview:unknownThing];
                [UIView animateWithDuration:0.5 animations:^{ box.alpha = 0; }];
                """), options: ImportOptions())
        let warning = try #require(result.diagnostics.first { $0.message.contains("run together") })
        #expect(warning.severity == .warning)
        #expect(warning.message.hasPrefix("boxaddSubview is box and addSubview run together"))
        #expect(warning.position.column == 2)
        // After the space put back, a column is the printed line's.
        let unknown = try #require(result.diagnostics.first { $0.message.contains("'unknownThing'") })
        #expect(unknown.position.line == 3 && unknown.position.column == 16, "\(unknown.position)")
        #expect(result.scene != nil)
    }
}
