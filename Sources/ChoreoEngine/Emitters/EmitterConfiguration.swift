/// The non-animatable part of a `CAEmitterLayer`: where particles are born and which cells it
/// emits. The animatable part (`emitterPosition`, `emitterSize`, `birthRate`, `lifetime`,
/// `velocity`, `scale`, `spin`) is ordinary layer properties.
public struct EmitterConfiguration: Sendable, Equatable {
    /// `emitterShape`.
    public enum Shape: String, Sendable, Equatable, CaseIterable {
        case point, line, rectangle, circle, cuboid, sphere
    }

    /// `emitterMode`.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        case points, outline, surface, volume
    }

    public var shape: Shape = .point
    public var mode: Mode = .volume
    /// `seed`: the same seed gives the same particles.
    public var seed: UInt32 = 0
    public var cells: [EmitterCell] = []

    public init() {}
}
