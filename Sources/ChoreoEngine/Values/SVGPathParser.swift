import Glibc

/// Reads SVG path data (`d` attribute syntax) into a ``BezierPath``.
public enum SVGPathParser {
    /// Why path data could not be read.
    public struct Failure: Error, Sendable, Equatable {
        public let message: String
    }

    /// Parses every SVG command: M L H V C S Q T A Z, absolute and relative.
    public static func parse(_ text: String) throws(Failure) -> BezierPath {
        var scanner = Scanner(text)
        var path = BezierPath()
        var command: UInt8 = 0
        var lastControl: Point? = nil
        var lastCommandUpper: UInt8 = 0
        var start = Point.zero
        while true {
            scanner.skipSeparators()
            if scanner.atEnd { break }
            if let letter = scanner.peekLetter() {
                command = letter
                scanner.advance()
            } else if command == 0 {
                throw Failure(message: "path data must start with a command letter")
            }
            let relative = command >= UInt8(ascii: "a")
            let upper = relative ? command - 32 : command
            let origin = relative ? path.currentPoint : Point.zero
            func point() throws(Failure) -> Point {
                let x = try scanner.number()
                let y = try scanner.number()
                return Point(origin.x + x, origin.y + y)
            }
            switch upper {
            case UInt8(ascii: "M"):
                let p = try point()
                path.move(to: p)
                start = p
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
                lastControl = nil
            case UInt8(ascii: "L"):
                path.line(to: try point())
                lastControl = nil
            case UInt8(ascii: "H"):
                let x = try scanner.number()
                path.line(to: Point(relative ? path.currentPoint.x + x : x, path.currentPoint.y))
                lastControl = nil
            case UInt8(ascii: "V"):
                let y = try scanner.number()
                path.line(to: Point(path.currentPoint.x, relative ? path.currentPoint.y + y : y))
                lastControl = nil
            case UInt8(ascii: "C"):
                let c1 = try point()
                let c2 = try point()
                let p = try point()
                path.cubic(to: p, control1: c1, control2: c2)
                lastControl = c2
            case UInt8(ascii: "S"):
                let current = path.currentPoint
                let c1 =
                    (lastCommandUpper == UInt8(ascii: "C") || lastCommandUpper == UInt8(ascii: "S"))
                    ? current * 2 - (lastControl ?? current) : current
                let c2 = try point()
                let p = try point()
                path.cubic(to: p, control1: c1, control2: c2)
                lastControl = c2
            case UInt8(ascii: "Q"):
                let c = try point()
                let p = try point()
                path.quad(to: p, control: c)
                lastControl = c
            case UInt8(ascii: "T"):
                let current = path.currentPoint
                let c =
                    (lastCommandUpper == UInt8(ascii: "Q") || lastCommandUpper == UInt8(ascii: "T"))
                    ? current * 2 - (lastControl ?? current) : current
                let p = try point()
                path.quad(to: p, control: c)
                lastControl = c
            case UInt8(ascii: "A"):
                let rx = abs(try scanner.number())
                let ry = abs(try scanner.number())
                let rotation = try scanner.number() * Double.pi / 180
                let largeArc = try scanner.flag()
                let sweepFlag = try scanner.flag()
                let p = try point()
                appendSVGArc(&path, to: p, rx: rx, ry: ry, rotation: rotation, largeArc: largeArc, sweep: sweepFlag)
                lastControl = nil
            case UInt8(ascii: "Z"):
                path.close()
                _ = start
                lastControl = nil
            default:
                throw Failure(message: "unknown path command '\(String(UnicodeScalar(command)))'")
            }
            lastCommandUpper = upper
        }
        if path.isEmpty { throw Failure(message: "path data is empty") }
        return path
    }

    /// The SVG endpoint-to-centre arc conversion (SVG 1.1 appendix F.6).
    private static func appendSVGArc(
        _ path: inout BezierPath, to end: Point, rx: Double, ry: Double, rotation: Double, largeArc: Bool, sweep: Bool
    ) {
        let startPoint = path.currentPoint
        if startPoint == end { return }
        if rx == 0 || ry == 0 {
            path.line(to: end)
            return
        }
        let (c, s) = (cos(rotation), sin(rotation))
        let dx = (startPoint.x - end.x) / 2
        let dy = (startPoint.y - end.y) / 2
        let x1 = c * dx + s * dy
        let y1 = -s * dx + c * dy
        var (rx, ry) = (rx, ry)
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = (max(0, numerator) / denominator).squareRoot()
        if largeArc == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry
        let cy1 = -factor * ry * x1 / rx
        let center = Point(
            c * cx1 - s * cy1 + (startPoint.x + end.x) / 2, s * cx1 + c * cy1 + (startPoint.y + end.y) / 2)
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && delta > 0 { delta -= 2 * Double.pi }
        if sweep && delta < 0 { delta += 2 * Double.pi }
        path.appendArc(center: center, radiusX: rx, radiusY: ry, rotation: rotation, start: theta1, sweep: delta)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var atEnd: Bool { index >= bytes.count }

        mutating func advance() { index += 1 }

        mutating func skipSeparators() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ",")].contains(bytes[index]) {
                index += 1
            }
        }

        func peekLetter() -> UInt8? {
            guard index < bytes.count else { return nil }
            let b = bytes[index]
            let isLetter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            return isLetter && b != UInt8(ascii: "e") && b != UInt8(ascii: "E") ? b : nil
        }

        mutating func flag() throws(Failure) -> Bool {
            skipSeparators()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
                throw Failure(message: "expected an arc flag (0 or 1) at offset \(index)")
            }
            defer { index += 1 }
            return bytes[index] == UInt8(ascii: "1")
        }

        mutating func number() throws(Failure) -> Double {
            skipSeparators()
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            var sawDigit = false
            var sawDot = false
            while index < bytes.count {
                let b = bytes[index]
                if b >= 0x30 && b <= 0x39 {
                    sawDigit = true
                } else if b == UInt8(ascii: ".") && !sawDot {
                    sawDot = true
                } else {
                    break
                }
                index += 1
            }
            if sawDigit, index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                    index += 1
                }
                while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard sawDigit, let value = Double(text), value.isFinite else {
                throw Failure(message: "expected a number at offset \(start)")
            }
            return value
        }
    }
}
