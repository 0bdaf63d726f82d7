/// `CAEmitterCell`: what one kind of particle looks like and how it moves.
///
/// Every `…Range` widens its value uniformly to [value − range/2, value + range/2] per particle;
/// every `…Speed` changes the value per second of the particle's life.
public struct EmitterCell: Sendable, Equatable {
    /// The shape a renderer draws for the particle: `dot`, `square`, or a size in points.
    public enum Contents: Sendable, Equatable {
        case dot
        case square
        case size(Point)
    }

    public var name: String?
    /// Particles per second (multiplied by the layer's `birthRate`).
    public var birthRate: Double = 0
    public var lifetime: Double = 0
    public var lifetimeRange: Double = 0
    public var velocity: Double = 0
    public var velocityRange: Double = 0
    /// Angle out of the x–y plane (radians); the velocity in the plane shrinks by its cosine.
    public var emissionLatitude: Double = 0
    /// Direction in the x–y plane (radians, 0 along +x, π/2 along +y: down on screen).
    public var emissionLongitude: Double = 0
    /// Width of the cone of directions around the emission direction (radians).
    public var emissionRange: Double = 0
    public var xAcceleration: Double = 0
    public var yAcceleration: Double = 0
    public var zAcceleration: Double = 0
    public var scale: Double = 1
    public var scaleRange: Double = 0
    public var scaleSpeed: Double = 0
    /// Rotation speed (radians per second).
    public var spin: Double = 0
    public var spinRange: Double = 0
    public var color = Color(red: 1, green: 1, blue: 1, alpha: 1)
    public var redRange: Double = 0
    public var greenRange: Double = 0
    public var blueRange: Double = 0
    public var alphaRange: Double = 0
    public var redSpeed: Double = 0
    public var greenSpeed: Double = 0
    public var blueSpeed: Double = 0
    public var alphaSpeed: Double = 0
    public var contents: Contents = .dot
    /// When the cell starts emitting, in seconds after the layer joins the tree.
    public var beginTime: Double = 0
    /// How long it emits; 0 is for ever.
    public var duration: Double = 0

    public init() {}
}
