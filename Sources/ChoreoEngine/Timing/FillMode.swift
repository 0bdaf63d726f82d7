/// `CAMediaTimingFillMode`: what an object shows outside its active duration.
public enum FillMode: String, Sendable, Equatable, Hashable, CaseIterable {
    /// `kCAFillModeRemoved`: nothing before the start or after the end.
    case removed
    /// `kCAFillModeForwards`: holds the final value after the end.
    case forwards
    /// `kCAFillModeBackwards`: shows the first value before the start.
    case backwards
    /// `kCAFillModeBoth`: both of the above.
    case both

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}
