/// Scene time resolution: every scheduled instant is rounded to the nanosecond, so that
/// `1.2 + 0.6` is the same instant as `1.8` and event times print as written.
public enum SceneTime {
    public static let resolution = 1e-9

    @inline(__always)
    public static func quantize(_ time: Double) -> Double {
        guard time.isFinite else { return time }
        let decimal = (time * 1e9).rounded() / 1e9
        return decimal == 0 ? 0 : decimal
    }
}
