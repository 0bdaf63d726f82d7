/// One live particle of an emitter layer at a sampled time.
public struct Particle: Sendable, Equatable {
    /// The cell's index in `emitterCells`, and its name if it has one.
    public let cell: Int
    public let cellName: String?
    /// The particle's birth index within its cell: stable from frame to frame.
    public let index: Int
    /// Seconds since birth.
    public let age: Double
    /// In the emitter layer's coordinates.
    public let position: Point
    public let scale: Double
    /// Radians.
    public let rotation: Double
    public let color: Color
}
