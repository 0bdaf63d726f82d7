/// The `CAMediaTiming` of a layer: how its subtree's time relates to its parent's.
///
/// `local = (parent − beginTime) × speed + timeOffset` (`CAMediaTiming.h`). Layers have no
/// duration; their speed, begin time and offset compose down the tree, so a layer with speed 0
/// and a time offset freezes its subtree at that time (`QA1673`, percent-driven transitions).
public struct LayerTiming: Sendable, Equatable, Hashable {
    public var beginTime: Double = 0
    public var speed: Double = 1
    public var timeOffset: Double = 0

    public init(beginTime: Double = 0, speed: Double = 1, timeOffset: Double = 0) {
        self.beginTime = beginTime
        self.speed = speed
        self.timeOffset = timeOffset
    }

    public var isIdentity: Bool { beginTime == 0 && speed == 1 && timeOffset == 0 }
}

/// A linear map from scene time to a layer's local time: `local = scale × scene + offset`.
///
/// The composition of every ancestor's ``LayerTiming`` (`CALayer.convertTime(_:from: nil)`).
public struct TimeMap: Sendable, Equatable {
    public var scale: Double
    public var offset: Double

    public static let identity = TimeMap(scale: 1, offset: 0)

    public init(scale: Double, offset: Double) {
        self.scale = scale
        self.offset = offset
    }

    @inline(__always)
    public func local(_ sceneTime: Double) -> Double { scale * sceneTime + offset }

    /// The scene time at which local time reaches `local`, or `nil` when time is frozen.
    public func sceneTime(forLocal local: Double) -> Double? {
        guard scale != 0 else { return nil }
        return (local - offset) / scale
    }

    /// This map followed by a child layer's timing.
    public func then(_ timing: LayerTiming) -> TimeMap {
        if timing.isIdentity { return self }
        // child = (parent − begin) × speed + offset, parent = scale × t + self.offset
        return TimeMap(
            scale: scale * timing.speed, offset: (offset - timing.beginTime) * timing.speed + timing.timeOffset)
    }
}
