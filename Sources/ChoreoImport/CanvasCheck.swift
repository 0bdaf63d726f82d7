import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// A layer that moves where the picture cannot show it: code written for a screen draws on the
/// canvas of that screen, so a layer that is outside the canvas for the whole of its animation
/// animates unseen — the code was written for another screen size, or its frame is not the one
/// meant. Said at the line that made the layer, with what to do.
enum CanvasCheck {
    /// How many instants of each layer's animations are looked at.
    static let samples = 24

    static func offCanvas(_ scene: JSONValue, _ decoded: Scene, map: [SourceMapping]) -> [ImportDiagnostic] {
        guard case .object(let document) = scene, case .object(let canvas)? = document["canvas"],
            case .number(let width)? = canvas["width"], case .number(let height)? = canvas["height"],
            case .array(let roots)? = document["layers"]
        else { return [] }
        // Each layer's parent and the path of its declaration, from the declared tree.
        var parents: [String: String] = [:]
        var paths: [String: String] = [:]
        var unmeasured: Set<String> = []
        func walk(_ layers: [JSONValue], parent: String?, path: String) {
            for (index, layer) in layers.enumerated() {
                guard case .object(let object) = layer, case .string(let id)? = object["id"] else { continue }
                let at = "\(path)[\(index)]"
                // A shape's path and an emitter's particles draw beyond its bounds: its box
                // says nothing of where it is seen.
                if case .string(let type)? = object["type"], type == "shape" || type == "emitter" {
                    unmeasured.insert(id)
                }
                paths[id] = at
                if let parent { parents[id] = parent }
                if case .array(let children)? = object["sublayers"] {
                    walk(children, parent: id, path: at + ".sublayers")
                }
            }
        }
        walk(roots, parent: nil, path: "$.layers")
        // When each layer animates, from one run of the scene.
        var probe = SamplingQuery()
        probe.times = [0]
        guard let run = try? RenderPlan.make(scene: decoded, query: probe),
            case .object(let response) = try? JSONParser.parse(ResponseEncoder.json(run, threads: 1)),
            case .array(let animations)? = response["animations"]
        else { return [] }
        var spans: [String: (Double, Double)] = [:]
        var order: [String] = []
        for animation in animations {
            guard case .object(let object) = animation, case .string(let layer)? = object["layer"],
                case .number(let start)? = object["startedAt"] ?? object["addedAt"]
            else { continue }
            let stop = object["stoppedAt"]?.numberValue ?? run.duration
            if let span = spans[layer] {
                spans[layer] = (min(span.0, start), max(span.1, stop))
            } else {
                spans[layer] = (start, stop)
                order.append(layer)
            }
        }
        guard !spans.isEmpty else { return [] }
        var times: Set<Double> = []
        for (start, stop) in spans.values {
            for step in 0...samples {
                times.insert(((start + (stop - start) * Double(step) / Double(samples)) * 1e6).rounded() / 1e6)
            }
        }
        var query = SamplingQuery()
        query.times = times.sorted()
        query.properties = ["position", "bounds", "anchorPoint", "transform", "hidden", "opacity"]
        guard let plan = try? RenderPlan.make(scene: decoded, query: query),
            case .object(let sampled) = try? JSONParser.parse(ResponseEncoder.json(plan, threads: 1)),
            case .array(let frames)? = sampled["frames"]
        else { return [] }
        var seen: Set<String> = []
        var boxes: [String: (Double, Double, Double, Double)] = [:]
        for frame in frames {
            guard case .object(let object) = frame, case .number(let time)? = object["time"],
                case .object(let layers)? = object["layers"]
            else { continue }
            for (layer, span) in spans where time >= span.0 - 1e-9 && time <= span.1 + 1e-9 {
                // The layer and what is in it: seen when any of it with an area is on the canvas.
                for part in [layer] + parents.keys.filter({ within($0, layer, parents) }) {
                    guard !unmeasured.contains(part), let box = box(of: part, in: layers, parents: parents) else {
                        seen.insert(layer)
                        continue
                    }
                    if box.2 - box.0 < 1e-9 || box.3 - box.1 < 1e-9 {
                        if part == layer { seen.insert(layer) }
                        continue
                    }
                    if box.0 < width && box.2 > 0 && box.1 < height && box.3 > 0 { seen.insert(layer) }
                    if part == layer, boxes[layer] == nil { boxes[layer] = box }
                }
            }
        }
        var problems: [ImportDiagnostic] = []
        for layer in order where !seen.contains(layer) {
            guard let box = boxes[layer], let path = paths[layer],
                let position = map.filter({ $0.path == path }).first?.position
            else { continue }
            problems.append(
                ImportDiagnostic(
                    .warning, position,
                    "\(layer) animates outside the \(format(width)) × \(format(height))-point screen for the whole of "
                        + "its animation (it starts at (\(format(box.0)), \(format(box.1)))): the picture does not show it",
                    fix: "give it a frame on the screen, or give the screen the code was written for with --screen WxH "
                        + "(\"screen\" in the API)"))
        }
        return problems
    }

    /// Whether `layer` is inside `ancestor` (at any depth).
    static func within(_ layer: String, _ ancestor: String, _ parents: [String: String]) -> Bool {
        var current = parents[layer]
        var depth = 0
        while let parent = current, depth < 256 {
            if parent == ancestor { return true }
            current = parents[parent]
            depth += 1
        }
        return false
    }

    /// The layer's box in the canvas at one instant: its bounds' corners carried through its
    /// transform and its superlayers' (about each one's anchor point).
    static func box(of id: String, in layers: JSONObject, parents: [String: String]) -> (
        Double, Double, Double, Double
    )? {
        guard case .object(let own)? = layers[id], let bounds = numbers(own["bounds"]), bounds.count == 4 else {
            return nil
        }
        var corners = [
            (bounds[0], bounds[1]), (bounds[0] + bounds[2], bounds[1]), (bounds[0], bounds[1] + bounds[3]),
            (bounds[0] + bounds[2], bounds[1] + bounds[3]),
        ]
        var current: String? = id
        var depth = 0
        while let layer = current, depth < 256 {
            depth += 1
            guard case .object(let object)? = layers[layer], let b = numbers(object["bounds"]), b.count == 4,
                let p = numbers(object["position"]), p.count == 2
            else { return nil }
            let a = numbers(object["anchorPoint"]) ?? [0.5, 0.5]
            let m = numbers(object["transform"]) ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
            let origin = (b[0] + a[0] * b[2], b[1] + a[1] * b[3])
            corners = corners.map { corner in
                let x = corner.0 - origin.0
                let y = corner.1 - origin.1
                if m.count == 16 {
                    return (p[0] + m[0] * x + m[4] * y + m[12], p[1] + m[1] * x + m[5] * y + m[13])
                }
                return (p[0] + x, p[1] + y)
            }
            current = parents[layer]
        }
        let xs = corners.map(\.0)
        let ys = corners.map(\.1)
        return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
    }

    static func numbers(_ value: JSONValue?) -> [Double]? {
        guard case .array(let items)? = value else { return nil }
        let values = items.compactMap(\.numberValue)
        return values.count == items.count ? values : nil
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension JSONValue {
    fileprivate var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
