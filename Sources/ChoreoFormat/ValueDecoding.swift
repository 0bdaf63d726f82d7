import ChoreoEngine
import ChoreoJSON
import Glibc

/// Reads property values in the scene format's JSON forms (see the Values table of the format).
extension JSONReader {
    mutating func value(_ json: JSONValue, kind: ValueKind, _ path: @autoclosure () -> String) -> Value? {
        switch kind {
        case .number:
            return number(json, path()).map { .number($0) }
        case .point:
            guard let n = geometry(json, path(), fields: ["x", "y"]) else { return nil }
            return .point(Point(n[0], n[1]))
        case .size:
            guard let n = geometry(json, path(), fields: ["width", "height"]) else { return nil }
            return .size(Point(n[0], n[1]))
        case .rect:
            guard let n = geometry(json, path(), fields: ["x", "y", "width", "height"]) else { return nil }
            return .rect(Rect(x: n[0], y: n[1], width: n[2], height: n[3]))
        case .color:
            return color(json, path()).map { .color($0) }
        case .transform:
            return transform(json, path()).map { .transform($0) }
        case .bool:
            return bool(json, path()).map { .bool($0) }
        case .string:
            guard let text = string(json, path()) else { return nil }
            guard text.utf8.count <= 10_000 else {
                fail(path(), "must be at most 10000 bytes long")
                return nil
            }
            return .string(text)
        case .path:
            return bezierPath(json, path()).map { .path($0) }
        }
    }

    /// A point, size or rect as numbers, or as its Core Graphics fields: `CGPoint`
    /// `{"x", "y"}`, `CGSize` `{"width", "height"}`, `CGRect` `{"x", "y", "width", "height"}` or
    /// `{"origin": {"x", "y"}, "size": {"width", "height"}}`.
    mutating func geometry(_ json: JSONValue, _ path: @autoclosure () -> String, fields: [String]) -> [Double]? {
        guard case .object(var object) = json else { return numbers(json, path(), count: fields.count) }
        if fields.count == 4 && (object["origin"] != nil || object["size"] != nil) {
            rejectUnknown(object, path(), allowed: ["origin", "size"])
            guard let originJSON = object["origin"], let sizeJSON = object["size"] else {
                fail(path(), "a CGRect needs both origin and size")
                return nil
            }
            guard let origin = geometry(originJSON, "\(path()).origin", fields: ["x", "y"]),
                let size = geometry(sizeJSON, "\(path()).size", fields: ["width", "height"])
            else { return nil }
            return origin + size
        }
        rejectUnknown(object, path(), allowed: Set(fields))
        var result: [Double] = []
        for field in fields {
            guard let value = object[field] else {
                fail("\(path()).\(field)", "is required")
                return nil
            }
            guard let number = number(value, "\(path()).\(field)") else { return nil }
            result.append(number)
            object[field] = nil
        }
        return result
    }

    mutating func color(_ json: JSONValue, _ path: String) -> Color? {
        if case .string(let given) = json, !given.hasPrefix("#") {
            // UIColor by name: `systemGreen`, `.systemGreen`, `UIColor.systemGreen`, `white`.
            var name = Substring(given)
            if name.hasPrefix("UIColor.") { name = name.dropFirst("UIColor.".count) }
            if name.hasPrefix(".") { name = name.dropFirst() }
            if let hex = Self.namedColors[String(name)] { return color(.string(hex), path) }
            fail(
                path, "must be \"#RRGGBB\", \"#RRGGBBAA\", [r, g, b, a] or a UIColor name such as systemBlue",
                suggestion: Vocabulary.suggestion(for: String(name), among: Self.namedColors.keys))
            return nil
        }
        if case .string(let text) = json {
            let hex = Array(text.utf8)
            guard hex.first == UInt8(ascii: "#"), hex.count == 7 || hex.count == 9,
                let raw = UInt64(String(text.dropFirst()), radix: 16)
            else {
                fail(path, "must be \"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a]")
                return nil
            }
            let full = hex.count == 7 ? raw << 8 | 0xFF : raw
            func component(_ shift: UInt64) -> Double { Double((full >> shift) & 0xFF) / 255 }
            return Color(red: component(24), green: component(16), blue: component(8), alpha: component(0))
        }
        guard let n = numbers(json, path, count: 4) else { return nil }
        for (index, component) in n.enumerated() where component < 0 || component > 1 {
            fail("\(path)[\(index)]", "colour components must be within 0…1")
            return nil
        }
        return Color(red: n[0], green: n[1], blue: n[2], alpha: n[3])
    }

    static var namedColors: [String: String] { NamedColors.table }

    /// `"identity"`, 16 numbers row by row, or `{"translate", "scale", "rotate", "perspective"}`
    /// composed as: scale, then rotation (x, y, z), then translation, then perspective `m34 = −1/d`.
    mutating func transform(_ json: JSONValue, _ path: String) -> Transform3D? {
        switch json {
        case .string("identity"):
            return .identity
        case .array:
            guard let n = numbers(json, path, count: 16) else { return nil }
            return Transform3D(elements: n)
        case .object(let given):
            // CGAffineTransform's initializers: (rotationAngle:), (scaleX:y:), (translationX:y:).
            var object = given
            if let angle = given["rotationAngle"] {
                rejectUnknown(given, path, allowed: ["rotationAngle"])
                object = JSONObject([("rotate", angle)])
            } else if let x = given["scaleX"] ?? given["translationX"] {
                let name = given["scaleX"] != nil ? "scaleX" : "translationX"
                rejectUnknown(given, path, allowed: [name, "y"])
                guard let y = given["y"] else {
                    fail("\(path).y", "is required with \(name), as in CGAffineTransform(\(name):y:)")
                    return nil
                }
                object =
                    name == "scaleX"
                    ? JSONObject([("scale", .array([x, y, .number(1)]))]) : JSONObject([("translate", .array([x, y]))])
            }
            rejectUnknown(object, path, allowed: ["translate", "scale", "rotate", "perspective"])
            var result = Transform3D.identity
            if let scale = object["scale"] {
                if case .number = scale {
                    guard let s = number(scale, "\(path).scale") else { return nil }
                    result = result.concatenating(.scale(s, s, s))
                } else if let n = numbers(scale, "\(path).scale", count: 3) {
                    result = result.concatenating(.scale(n[0], n[1], n[2]))
                }
            }
            if let rotate = object["rotate"] {
                if case .number = rotate {
                    guard let angle = number(rotate, "\(path).rotate") else { return nil }
                    checkRadians(angle, "\(path).rotate")
                    result = result.concatenating(.rotation(angle, x: 0, y: 0, z: 1))
                } else if let axes = self.object(rotate, "\(path).rotate") {
                    rejectUnknown(axes, "\(path).rotate", allowed: ["x", "y", "z"])
                    for axis in ["x", "y", "z"] {
                        guard let raw = axes[axis], let angle = number(raw, "\(path).rotate.\(axis)") else { continue }
                        checkRadians(angle, "\(path).rotate.\(axis)")
                        let rotation = Transform3D.rotation(
                            angle, x: axis == "x" ? 1 : 0, y: axis == "y" ? 1 : 0, z: axis == "z" ? 1 : 0)
                        result = result.concatenating(rotation)
                    }
                }
            }
            if let translate = object["translate"], let n = numbers(translate, "\(path).translate") {
                guard n.count == 2 || n.count == 3 else {
                    fail("\(path).translate", "must have 2 or 3 numbers")
                    return nil
                }
                result = result.concatenating(.translation(n[0], n[1], n.count == 3 ? n[2] : 0))
            }
            if let perspective = object["perspective"],
                let d = number(perspective, "\(path).perspective", min: 0, exclusiveMin: true)
            {
                var p = Transform3D.identity
                p.m34 = -1 / d
                result = result.concatenating(p)
            }
            return result
        default:
            fail(
                path,
                "must be \"identity\", 16 numbers, an object with translate, scale, rotate, perspective, or CGAffineTransform's rotationAngle, scaleX and y, translationX and y"
            )
            return nil
        }
    }

    /// SVG path data, or a list of commands: `{"move": [x, y]}`, `{"line": [x, y]}`,
    /// `{"quad": [[cx, cy], [x, y]]}`, `{"cubic": [[c1x, c1y], [c2x, c2y], [x, y]]}`,
    /// `{"arc": {"center", "radius", "startAngle", "endAngle", "clockwise"}}`, `"close"`.
    mutating func bezierPath(_ json: JSONValue, _ path: String) -> BezierPath? {
        if case .string(let text) = json {
            do {
                return try SVGPathParser.parse(text)
            } catch {
                fail(path, "invalid SVG path data: \(error.message)")
                return nil
            }
        }
        guard let commands = array(json, path) else { return nil }
        guard !commands.isEmpty else {
            fail(path, "must not be empty")
            return nil
        }
        var result = BezierPath()
        for (index, command) in commands.enumerated() {
            let itemPath = "\(path)[\(index)]"
            if case .string("close") = command {
                result.close()
                continue
            }
            guard let object = object(command, itemPath), object.count == 1, let name = object.keys.first else {
                fail(itemPath, "must be one of {\"move\"}, {\"line\"}, {\"quad\"}, {\"cubic\"}, {\"arc\"} or \"close\"")
                return nil
            }
            let argument = object[name]!
            let argumentPath = "\(itemPath).\(name)"
            func points(_ count: Int) -> [Point]? {
                guard let items = array(argument, argumentPath), items.count == count else {
                    fail(argumentPath, "must be \(count) points")
                    return nil
                }
                var points: [Point] = []
                for (i, item) in items.enumerated() {
                    guard let n = numbers(item, "\(argumentPath)[\(i)]", count: 2) else { return nil }
                    points.append(Point(n[0], n[1]))
                }
                return points
            }
            switch name {
            case "move", "line":
                guard let n = numbers(argument, argumentPath, count: 2) else { return nil }
                if name == "move" { result.move(to: Point(n[0], n[1])) } else { result.line(to: Point(n[0], n[1])) }
            case "quad":
                guard let p = points(2) else { return nil }
                result.quad(to: p[1], control: p[0])
            case "cubic":
                guard let p = points(3) else { return nil }
                result.cubic(to: p[2], control1: p[0], control2: p[1])
            case "arc":
                guard let arc = self.object(argument, argumentPath) else { return nil }
                rejectUnknown(arc, argumentPath, allowed: ["center", "radius", "startAngle", "endAngle", "clockwise"])
                guard let centerJSON = arc["center"], let c = numbers(centerJSON, "\(argumentPath).center", count: 2),
                    let radiusJSON = arc["radius"], let radius = number(radiusJSON, "\(argumentPath).radius", min: 0),
                    let startJSON = arc["startAngle"], let start = number(startJSON, "\(argumentPath).startAngle"),
                    let endJSON = arc["endAngle"], let end = number(endJSON, "\(argumentPath).endAngle")
                else {
                    fail(argumentPath, "needs center, radius, startAngle and endAngle")
                    return nil
                }
                let clockwise = arc["clockwise"].flatMap { bool($0, "\(argumentPath).clockwise") } ?? true
                result.addArc(
                    center: Point(c[0], c[1]), radius: radius, startAngle: start, endAngle: end, clockwise: clockwise)
            default:
                fail(itemPath, "unknown path command \"\(name)\"")
                return nil
            }
        }
        return result
    }

    mutating func timingFunction(_ json: JSONValue, _ path: String) -> TimingFunction? {
        switch json {
        case .string(let given):
            guard let name = Vocabulary.timingFunctionNames.resolve(given), let function = TimingFunction.named(name)
            else {
                fail(
                    path, "unknown timing function \"\(given)\" (linear, easeIn, easeOut, easeInEaseOut, default)",
                    suggestion: Vocabulary.timingFunctionNames.suggestion(for: given))
                return nil
            }
            return function
        case .array:
            guard let n = numbers(json, path, count: 4) else { return nil }
            guard (0...1).contains(n[0]), (0...1).contains(n[2]) else {
                fail(path, "control point x values must be within 0…1")
                return nil
            }
            return .bezier(UnitBezier(n[0], n[1], n[2], n[3]))
        case .object(let object):
            // `CAMediaTimingFunction(controlPoints:_:_:_:)`, spelled as an object.
            if let points = object["controlPoints"] {
                rejectUnknown(object, path, allowed: ["controlPoints"])
                return timingFunction(points, "\(path).controlPoints")
            }
            rejectUnknown(object, path, allowed: ["steps", "position", "controlPoints"])
            guard let stepsJSON = object["steps"], let steps = integer(stepsJSON, "\(path).steps", min: 1, max: 10_000)
            else {
                if object["steps"] == nil {
                    fail(path, "give steps ({\"steps\": n}) or controlPoints ({\"controlPoints\": [x1, y1, x2, y2]})")
                }
                return nil
            }
            var position = TimingFunction.StepPosition.end
            if let positionJSON = object["position"], let name = string(positionJSON, "\(path).position") {
                guard let parsed = TimingFunction.StepPosition(rawValue: name) else {
                    fail("\(path).position", "must be \"start\" or \"end\"")
                    return nil
                }
                position = parsed
            }
            return .steps(steps, position)
        default:
            fail(
                path, "must be a curve name, [x1, y1, x2, y2], {\"controlPoints\": [x1, y1, x2, y2]} or {\"steps\": n}")
            return nil
        }
    }
}
