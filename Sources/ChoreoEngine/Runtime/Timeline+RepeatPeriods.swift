extension Timeline {
    /// The periods, in scene seconds, of the animations still attached at the end of the run
    /// that repeat for ever (`repeatCount` or `repeatDuration` of `.infinity`, Core Animation's
    /// `HUGE_VALF`): each one's cycle (`duration`, twice it when `autoreverses`) over its
    /// `speed` and its groups' speeds, for the outermost timing in its chain (a group's or its
    /// own) that never ends. The layer's own time (its `speed`) is not folded in: a caller checks
    /// a period against the frames before it trusts it.
    package var foreverPeriods: [Double] {
        var periods: [Double] = []
        for leaf in leaves where leaf.removedAt == .infinity {
            let chain = leaf.body.groups.map(\.timing) + [leaf.body.timing]
            guard let outermost = chain.firstIndex(where: { !$0.activeDuration.isFinite }) else { continue }
            var period = chain[outermost].cycleDuration
            for timing in chain[...outermost] { period /= abs(timing.speed) }
            if period.isFinite && period > 0 { periods.append(period) }
        }
        return periods
    }
}
