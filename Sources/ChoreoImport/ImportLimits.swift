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
package struct ImportOptions: Sendable {
    /// `Type.method` or `method` to run instead of the default entry point.
    package var entry: String?
    /// The value of `UIAccessibility.isReduceMotionEnabled`.
    package var reduceMotion = false
    package var limits = ImportLimits()

    package init(entry: String? = nil, reduceMotion: Bool = false, limits: ImportLimits = ImportLimits()) {
        self.entry = entry
        self.reduceMotion = reduceMotion
        self.limits = limits
    }
}
