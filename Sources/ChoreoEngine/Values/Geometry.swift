/// A 2-D point or vector: `CGPoint` (and, as a separate value kind, `CGSize`).
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(0, 0)

    @inline(__always) public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inline(__always) public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inline(__always) public static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }

    /// The Euclidean length of the vector.
    public var length: Double { (x * x + y * y).squareRoot() }
}

/// A rectangle `[x, y, width, height]`: `CGRect`, as `bounds` holds it.
public struct Rect: Sendable, Equatable, Hashable {
    public var origin: Point
    public var size: Point

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x, y)
        size = Point(width, height)
    }

    public init(origin: Point, size: Point) {
        self.origin = origin
        self.size = size
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
}

/// A colour as non-premultiplied sRGB components in 0…1: `CGColor`.
public struct Color: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0, alpha: 1)
}
