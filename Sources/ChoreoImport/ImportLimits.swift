/// The bounds of one import. Each is checked before the work it bounds; going over one stops the
/// import with an error at the line that went over (docs/import.md, "Limits").
package struct ImportLimits: Sendable {
    /// Source bytes.
    package var sourceBytes = 1 << 20
    /// Statements and expressions evaluated, in all.
    package var steps = 2_000_000
    /// Iterations of any one loop.
    package var loopIterations = 10_000
    /// Nested calls of the file's functions and closures.
    package var callDepth = 64
    /// Views and layers made.
    package var layers = 10_000
    /// Objects in the evaluator's heap (views, layers, animations, instances of the file's
    /// classes), in all.
    package var objects = 100_000
    /// The size of one value: a string's UTF-8 bytes, an array's or a dictionary's elements.
    /// Values double in a few lines of code (`s = s + s`); this stops them where they pass it.
    package var valueSize = 1 << 20
    /// Actions in the scene.
    package var actions = 100_000
    /// How far the virtual clock runs, in seconds: blocks scheduled later are not imported.
    package var horizon = 600.0
    /// Times one callback may run in a chain of callbacks that start each other (a completion
    /// that starts its animation again): each round nests in the last, and a scene nests at
    /// most 256 levels.
    package var chainRounds = 24

    package init() {}
}

/// What an import is asked to do besides reading the source.
/// A tap on a SwiftUI view's button: `Title@1.5` (its title, or the tapped view's id, then the
/// scene time in seconds).
package enum ImportTap {
    /// At most this many taps an import.
    package static let limit = 100

    /// `"Title@1.5"` split at its last `@`; nil when it is not a title and a time of 0…3,600 s.
    package static func parse(_ text: String) -> (title: String, time: Double)? {
        guard let at = text.lastIndex(of: "@"), let time = Double(text[text.index(after: at)...]), time.isFinite,
            time >= 0, time <= 3600, at > text.startIndex
        else { return nil }
        return (String(text[..<at]), time)
    }

    /// What a malformed tap is told.
    package static let expected = "must be a title and a time, as \"Toggle@1.5\" (seconds, 0 to 3600)"
}

/// The size of the screen code written in a view controller draws on (`--screen 390x844`).
package enum ImportScreen {
    /// An iPhone 8's and SE's screen, in points: the size when none is given.
    package static let standard = (width: 375.0, height: 667.0)

    /// `"390x844"` (or `390×844`): a width and a height in points, each 1 to 10,000.
    package static func parse(_ text: String) -> (width: Double, height: Double)? {
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" }).map(String.init)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
            width.isFinite, height.isFinite, width >= 1, height >= 1, width <= 10_000, height <= 10_000
        else { return nil }
        return (width, height)
    }

    /// What a malformed size is told.
    package static let expected = "must be a width and a height in points, as \"390x844\" (each 1 to 10000)"
}

package struct ImportOptions: Sendable {
    /// `Type.method` or `method` to run instead of the default entry point.
    package var entry: String?
    /// The value of `UIAccessibility.isReduceMotionEnabled`.
    package var reduceMotion = false
    package var limits = ImportLimits()
    /// A SwiftUI view's taps, in the order given: a button's title (or a tapped view's id) and
    /// the scene time of the tap (`--tap "Title"@1.5`). None: each button once, a second apart.
    package var taps: [(title: String, time: Double)] = []
    /// The screen a view controller's view fills (``ImportScreen``); nil: 375 × 667 points.
    package var screen: (width: Double, height: Double)?

    package init(entry: String? = nil, reduceMotion: Bool = false, limits: ImportLimits = ImportLimits()) {
        self.entry = entry
        self.reduceMotion = reduceMotion
        self.limits = limits
    }
}
