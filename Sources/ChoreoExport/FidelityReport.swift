import ChoreoEngine
import ChoreoJSON
import ChoreoRaster

/// What an export kept of the scene (docs/export.md): what is exact, what was baked into
/// keyframes and at what rate, what was approximated or dropped, and the largest differences
/// measured by playing the export's keyframes back against the engine's frames.
public struct FidelityReport: Sendable, Equatable {
    /// Properties of one layer, and why they are in their list.
    public struct Entry: Sendable, Equatable {
        public let layer: String
        public let properties: [String]
        public let note: String?
    }

    /// The largest differences between the export and the scene, at every baked frame and at a
    /// quarter and three quarters of the way between frames.
    public struct Measured: Sendable, Equatable {
        public var samples = 0
        /// A layer's centre, in points on the stage.
        public var position = 0.0
        /// Effective opacity (the layer's times its ancestors'), 0…1.
        public var opacity = 0.0
        /// Any colour channel of a background, border, fill or stroke, in levels of 255.
        public var color = 0.0
        /// Where the largest position difference was.
        public var worstLayer: String?
        public var worstTime: Double?
    }

    /// A scene that repeats for ever: the span exported, and the common period that makes it
    /// seamless (nil where none was found and the run's horizon cuts it).
    public struct Loop: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var period: Double?

        /// Whether a player that loops the whole Lottie file (`ip`…`op`) is seamless: wherever a
        /// period was found, `ip` being where the repeating part starts.
        public var seamless: Bool { period != nil }

        /// What a looping player shows at the seam.
        public var note: String {
            guard let period else {
                return
                    "repeats for ever with no common period within the run's horizon: cut at \(FidelityReport.number(end)) s, a looping player jumps at the seam"
            }
            let span = "\(FidelityReport.number(period)) s, a whole number of the repeating animations' common period"
            if start == 0 { return "exported over \(span): seamless where a player loops it" }
            return
                "repeats from \(FidelityReport.number(start)) s on; exported through one more \(span): the Lottie file plays from there (ip), so a player looping it is seamless, and what comes before is not shown; the web formats play the run from 0 once"
        }
    }

    public let format: ExportFormat
    public var loop: Loop?
    public let fps: Double
    public let frames: Int
    public let duration: Double
    public var exact: [Entry] = []
    public var baked: [Entry] = []
    public var approximated: [Entry] = []
    public var dropped: [Entry] = []
    public var measured = Measured()

    /// The report as JSON (the `choreo` member of a Lottie file, `report=1`).
    /// The report as the JSON document `report=1` and `choreo export --report` give.
    public var document: [UInt8] {
        var writer = JSONWriter()
        writer.value(json)
        return writer.bytes
    }

    public var json: JSONValue {
        func entries(_ list: [Entry]) -> JSONValue {
            .array(
                list.map { entry in
                    var object = JSONObject([
                        ("layer", .string(entry.layer)), ("properties", .array(entry.properties.map { .string($0) })),
                    ])
                    if let note = entry.note { object["note"] = .string(note) }
                    return .object(object)
                })
        }
        var measuredObject = JSONObject([
            ("samples", .number(Double(measured.samples))), ("position", .number(Self.rounded(measured.position))),
            ("opacity", .number(Self.rounded(measured.opacity))), ("color", .number(Self.rounded(measured.color))),
        ])
        if let layer = measured.worstLayer, let time = measured.worstTime {
            measuredObject["worst"] = .object(
                JSONObject([("layer", .string(layer)), ("time", .number(Self.rounded(time)))]))
        }
        var object = JSONObject([
            ("format", .string(format.rawValue)), ("fps", .number(fps)), ("frames", .number(Double(frames))),
            ("duration", .number(Self.rounded(duration))),
        ])
        if let loop {
            object["loop"] = .object(
                JSONObject([
                    ("start", .number(Self.rounded(loop.start))), ("end", .number(Self.rounded(loop.end))),
                    ("period", loop.period.map { .number(Self.rounded($0)) } ?? .null), ("note", .string(loop.note)),
                ]))
        }
        object["exact"] = entries(exact)
        object["baked"] = entries(baked)
        object["approximated"] = entries(approximated)
        object["dropped"] = entries(dropped)
        object["measured"] = .object(measuredObject)
        return .object(object)
    }

    /// The report as the lines of a comment block (CSS and HTML).
    public var commentLines: [String] {
        var lines = [
            "choreo export fidelity report (\(format.rawValue), \(frames) frames at \(Self.number(fps)) fps, \(Self.number(duration)) s)",
            "measured over \(measured.samples) samples (every frame, and a quarter and three quarters of the way between):",
            "  largest difference: position \(Self.number(measured.position)) pt, opacity \(Self.number(measured.opacity)), colour \(Self.number(measured.color)) of 255",
        ]
        if let loop { lines.append("loop: \(loop.note)") }
        for (title, list) in [("exact", exact), ("baked", baked), ("approximated", approximated), ("dropped", dropped)]
        where !list.isEmpty {
            lines.append("\(title):")
            for entry in list {
                var line = "  \(entry.layer): \(entry.properties.joined(separator: ", "))"
                if let note = entry.note { line += " (\(note))" }
                lines.append(line)
            }
        }
        return lines
    }

    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

    static func number(_ value: Double) -> String {
        let r = rounded(value)
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }
}

extension Channel {
    /// The Core Animation key paths a channel carries, as the report names them.
    var keyPaths: [String] {
        switch self {
        case .translate: ["position"]
        case .rotate, .scale, .skew, .matrix: ["transform"]
        case .size: ["bounds.size"]
        case .opacity: ["opacity", "hidden"]
        case .groupOpacity: []
        case .background: ["backgroundColor"]
        case .cornerRadius: ["cornerRadius"]
        case .borderWidth: ["borderWidth"]
        case .borderColor: ["borderColor"]
        case .shadowColor: ["shadowColor", "shadowOpacity"]
        case .shadowOffset: ["shadowOffset"]
        case .shadowRadius: ["shadowRadius"]
        case .fill: ["fillColor"]
        case .stroke: ["strokeColor"]
        case .lineWidth: ["lineWidth"]
        case .trim: ["strokeStart", "strokeEnd"]
        case .foreground: ["foregroundColor"]
        case .anchor: ["anchorPoint"]
        case .corner: []
        case .blur: ["blurRadius"]
        }
    }
}

extension BakedLayer {
    /// Whether a channel matters for this layer: its type has it, and it is ever seen.
    func uses(_ channel: Channel) -> Bool {
        func everNonZero(_ channel: Channel, lane: Int = 0) -> Bool {
            let values = samples[channel.rawValue]
            let width = channel.width
            return stride(from: lane, to: values.count, by: width).contains { values[$0] != 0 }
        }
        switch channel {
        case .groupOpacity, .corner: return false
        case .anchor: return animated[channel.rawValue]
        case .matrix: return projective
        case .skew: return animated[channel.rawValue] || everNonZero(.skew)
        case .cornerRadius: return everNonZero(.cornerRadius)
        case .blur: return everNonZero(.blur)
        case .borderWidth, .borderColor: return everNonZero(.borderWidth)
        case .shadowColor, .shadowOffset, .shadowRadius: return everNonZero(.shadowColor, lane: 3)
        case .fill, .stroke, .lineWidth, .trim: return type == .shape
        case .foreground: return type == .text
        default: return true
        }
    }
}

extension ExportModel {
    /// The report of this model written as `format`, its differences measured against the
    /// engine at every frame and between frames.
    func report(
        _ format: ExportFormat, approximated: [FidelityReport.Entry], dropped: [FidelityReport.Entry],
        shouldStop: () -> Bool = { false }
    ) throws(ExportError) -> FidelityReport {
        var report = FidelityReport(
            format: format, fps: scene.fps, frames: scene.frameCount, duration: scene.duration)
        report.loop = scene.loop.map { FidelityReport.Loop(start: $0.start, end: $0.end, period: $0.period) }
        for (position, layer) in scene.layers.enumerated() {
            var exact: [String] = []
            var curved: [String] = []
            var baked: [String] = []
            var keyframeCount = 0
            var curveCount = 0
            for channel in Channel.allCases where layer.uses(channel) {
                if let keys = keyframes[position][channel.rawValue] {
                    if keys.isExact && keys.curveCount == 0 {
                        // Held values and steps only.
                        exact += channel.keyPaths.filter { !exact.contains($0) }
                    } else if keys.isExact {
                        curved += channel.keyPaths.filter { !curved.contains($0) }
                    } else {
                        baked += channel.keyPaths.filter { !baked.contains($0) }
                        keyframeCount = max(keyframeCount, keys.frames.count)
                        curveCount = max(curveCount, keys.curveCount)
                    }
                } else {
                    exact += channel.keyPaths.filter { !exact.contains($0) }
                }
            }
            var along: String?
            if let offset = layer.offsetPath {
                // Its position is the path's point and what the translate adds to it.
                exact.removeAll { $0 == "position" }
                curved.removeAll { $0 == "position" }
                baked.removeAll { $0 == "position" }
                let count = distances[position]?.frames.count ?? 1
                along =
                    "along its path as CSS offset-path (\(offset.points.count) points, straight lines within \(FidelityReport.number(OffsetPath.flatness)) pt of it), the distance along it sampled at \(FidelityReport.number(scene.fps)) fps, linear between \(count) keyframes"
            }
            curved.removeAll { baked.contains($0) }
            exact.removeAll { baked.contains($0) || curved.contains($0) }
            if !exact.isEmpty { report.exact.append(.init(layer: layer.id, properties: exact, note: nil)) }
            if !curved.isEmpty {
                report.exact.append(
                    .init(
                        layer: layer.id, properties: curved,
                        note: "keyframes at the animations' own times, eased by their timing functions"))
            }
            if !baked.isEmpty {
                var note =
                    "sampled at \(FidelityReport.number(scene.fps)) fps, linear between up to \(keyframeCount) keyframes"
                if curveCount > 0 {
                    note += ", with up to \(curveCount) stretches eased by their animations' timing functions"
                }
                report.baked.append(.init(layer: layer.id, properties: baked, note: note))
            }
            if let along { report.baked.append(.init(layer: layer.id, properties: ["position"], note: along)) }
        }
        for (position, list) in added.enumerated() where !list.isEmpty {
            var keyPaths: [String] = []
            for animation in list where !keyPaths.contains(animation.keyPath) { keyPaths.append(animation.keyPath) }
            report.exact.append(
                .init(
                    layer: scene.layers[position].id, properties: keyPaths,
                    note:
                        "additive animations added to the value beneath (animation-composition: add), at their own times, eased by their timing functions"
                ))
        }
        report.approximated = approximated
        report.dropped = dropped
        report.measured = try measure(format, shouldStop: shouldStop)
        return report
    }

    /// Plays the keyframes back at every frame and between frames, against the engine.
    func measure(_ format: ExportFormat, shouldStop: () -> Bool = { false }) throws(ExportError)
        -> FidelityReport.Measured
    {
        var measured = FidelityReport.Measured()
        let renderer = engine
        let cursor = renderer.frames.makeCursor()
        // Every frame, and a quarter and three quarters of the way to the next: times the
        // export was not made from (it keeps frames, and middles where a curve bends fast).
        let steps = max(1, scene.frameCount * 3 - 2)
        let stage = [1, 0, 0, 0, 1, 0, -scene.origin.x, -scene.origin.y, 1]
        for step in 0..<steps {
            if shouldStop() { throw .cancelled }
            let frame = Double(step / 3) + [0, 0.25, 0.75][step % 3]
            let time = SceneTime.quantize(frame / scene.fps)
            let snapshot = renderer.snapshot(at: time, cursor: cursor)
            measured.samples += 1
            var engineMaps: [[Double]] = []
            var engineGroup: [Double] = []
            engineMaps.reserveCapacity(snapshot.layers.count)
            for layer in snapshot.layers {
                let parent = layer.parent >= 0 ? snapshot.slot[layer.parent] : -1
                engineMaps.append(Planar.then(layer.toParent, parent >= 0 ? engineMaps[parent] : stage))
                let own = layer.hidden ? 0 : layer.opacity
                engineGroup.append(own * (parent >= 0 ? engineGroup[parent] : 1))
            }
            var modelMaps: [[Double]] = []
            var modelGroup: [Double] = []
            for (position, layer) in scene.layers.enumerated() {
                let parent = layer.parent >= 0 ? scene.slot[layer.parent] : -1
                // A root's map is to the stage already.
                let local = localMap(
                    position, at: frame, aboutCorner: !format.isLottie && webAboutCorner(position))
                modelMaps.append(parent >= 0 ? Planar.then(local, modelMaps[parent]) : local)
                let own = value(position, .opacity, at: frame)[0]
                let group =
                    format.isLottie
                    ? value(position, .groupOpacity, at: frame)[0] : own * (parent >= 0 ? modelGroup[parent] : 1)
                modelGroup.append(group)
            }
            for (position, layer) in scene.layers.enumerated() {
                let slot = snapshot.slot[layer.index]
                let engineOpacity = slot >= 0 ? engineGroup[slot] : 0
                let opacityDifference = abs(engineOpacity - modelGroup[position])
                measured.opacity = max(measured.opacity, opacityDifference)
                guard slot >= 0, engineOpacity > 0 || modelGroup[position] > 0 else { continue }
                let engine = snapshot.layers[slot]
                let b = engine.bounds
                let engineCentre = Planar.apply(
                    engineMaps[slot], Point(b.origin.x + b.size.x / 2, b.origin.y + b.size.y / 2))
                let size = value(position, .size, at: frame)
                let modelCentre = Planar.apply(modelMaps[position], Point(size[0] / 2, size[1] / 2))
                let distance =
                    ((engineCentre.x - modelCentre.x) * (engineCentre.x - modelCentre.x)
                    + (engineCentre.y - modelCentre.y) * (engineCentre.y - modelCentre.y)).squareRoot()
                if distance > measured.position {
                    measured.position = distance
                    measured.worstLayer = layer.id
                    measured.worstTime = time
                }
                var colors: [(Channel, Color)] = [(.background, engine.background)]
                if layer.uses(.borderColor) { colors.append((.borderColor, engine.borderColor)) }
                if layer.type == .shape { colors += [(.fill, engine.fillColor), (.stroke, engine.strokeColor)] }
                if layer.type == .text { colors.append((.foreground, engine.foregroundColor)) }
                for (channel, color) in colors {
                    // Premultiplied: the colour of a transparent paint does not show.
                    let model = value(position, channel, at: frame)
                    let modelLanes = [model[0] * model[3], model[1] * model[3], model[2] * model[3], model[3]]
                    let lanes = [
                        color.red * color.alpha, color.green * color.alpha, color.blue * color.alpha, color.alpha,
                    ]
                    for lane in 0..<4 {
                        measured.color = max(measured.color, abs(modelLanes[lane] - lanes[lane]) * 255)
                    }
                }
            }
        }
        return measured
    }
}
