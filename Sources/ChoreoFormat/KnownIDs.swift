/// The ids a live session's input may name besides its own: the layers, property animators
/// and transitions that exist in the session when the input runs.
public struct KnownIDs: Sendable, Equatable {
    public var layers: [String]
    public var animators: [String]
    public var transitions: [String]

    public init(layers: [String] = [], animators: [String] = [], transitions: [String] = []) {
        self.layers = layers
        self.animators = animators
        self.transitions = transitions
    }
}
