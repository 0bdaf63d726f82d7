import Glibc
import Synchronization

/// `CAEmitterLayer` sampling: the particles alive at any time, computed from the emitter's
/// settings and its birth-rate curve alone, never from earlier frames.
extension Timeline {
    /// Step for integrating an animated `birthRate` (a fixed grid from the cell's start, so the
    /// result never depends on which frames are sampled).
    static let emissionStep = 1.0 / 240

    /// The particles of an emitter layer alive at scene time `time`, by cell then birth order.
    /// `emissions` keeps animated birth-rate integrals between the frames of one render (they
    /// are the same whichever frames ask, so a render passes one cache to every frame).
    public func particles(layer: Int, at time: Double, emissions: EmissionCache? = nil) -> [Particle] {
        guard let emitter = layers[layer].emitter else { return [] }
        var result: [Particle] = []
        for (cellIndex, cell) in emitter.cells.enumerated() where cell.birthRate > 0 {
            let start = layers[layer].joinedAt + cell.beginTime
            var end = cell.duration > 0 ? start + cell.duration : Double.infinity
            end = min(end, time)
            guard end > start else { continue }
            let emission = EmissionCurve(
                timeline: self, layer: layer, cell: cellIndex, cellRate: cell.birthRate, from: start, to: end,
                cache: emissions ?? EmissionCache())
            let lifetimeFactor = number(layer, .lifetime, at: time)
            let longest = max(0, (cell.lifetime + abs(cell.lifetimeRange) / 2) * max(lifetimeFactor, 0))
            let born = emission.count(at: end)
            // Birth indices are exact integers below 2^52; at most the newest
            // Limits.maxParticlesPerCell of a cell are drawn (what an animated rate can reach).
            guard born.isFinite && born < 4e15 else { continue }
            let oldest = max(emission.count(at: max(start, time - longest)).rounded(.down), 0)
            var index = Int(max(oldest, born.rounded(.up) - Double(Limits.maxParticlesPerCell)))
            while Double(index) < born {
                defer { index += 1 }
                let birth = emission.time(ofBirth: Double(index))
                let age = time - birth
                guard age >= 0 else { continue }
                let random = ParticleRandom(seed: emitter.seed, cell: cellIndex, index: index)
                let lifetime =
                    random.spread(cell.lifetime, cell.lifetimeRange, .lifetime) * number(layer, .lifetime, at: birth)
                guard age < lifetime else { continue }
                result.append(
                    particle(
                        cell, cellIndex, index, emitter: emitter, layer: layer, birth: birth, age: age, random: random))
            }
        }
        return result
    }

    /// The most particles of an emitter layer any frame can draw: per cell, its birth rate ×
    /// longest lifetime with the largest multipliers the script ever sets, or the per-cell cap
    /// (``Limits/maxParticlesPerCell``) when an animation drives a multiplier. Known before
    /// any frame is sampled, so a render's cost is decided before its work starts.
    public func particleBound(layer: Int) -> Double {
        guard let emitter = layers[layer].emitter else { return 0 }
        let track = layers[layer]
        let animated =
            track.animatedProperties.contains(.birthRate) || track.animatedProperties.contains(.lifetime)
        func largest(_ property: LayerProperty) -> Double {
            guard let history = track.model[property.ordinal] else { return 1 }
            return history.values.reduce(0) { result, value in
                if case .number(let n) = value { return max(result, n) }
                return result
            }
        }
        let rate = largest(.birthRate)
        let lifetime = largest(.lifetime)
        var total = 0.0
        for cell in emitter.cells where cell.birthRate > 0 {
            let cap = Double(Limits.maxParticlesPerCell)
            let alive = cell.birthRate * rate * (cell.lifetime + abs(cell.lifetimeRange) / 2) * lifetime
            total += animated || !alive.isFinite ? cap : min(cap, alive.rounded(.up))
        }
        return total
    }

    /// A number property's presentation value (1, the multipliers' default, for other kinds).
    func number(_ layer: Int, _ property: LayerProperty, at time: Double) -> Double {
        let map = timeMap(of: layer, at: time)
        if case .number(let n) = presentationValue(layer: layer, keyPath: KeyPath(property), at: time, map: map) {
            return n
        }
        return 1
    }

    private func point(_ layer: Int, _ property: LayerProperty, at time: Double) -> Point {
        let map = timeMap(of: layer, at: time)
        switch presentationValue(layer: layer, keyPath: KeyPath(property), at: time, map: map) {
        case .point(let p), .size(let p): return p
        default: return .zero
        }
    }

    private func particle(
        _ cell: EmitterCell, _ cellIndex: Int, _ index: Int, emitter: EmitterConfiguration, layer: Int, birth: Double,
        age: Double, random: ParticleRandom
    ) -> Particle {
        // Everything but the age is read at birth, as Core Animation copies the emitter's
        // multipliers into each particle when it is born.
        let origin = point(layer, .emitterPosition, at: birth)
        let size = point(layer, .emitterSize, at: birth)
        let place = Self.birthPlace(emitter.shape, emitter.mode, size: size, random: random)
        let speed = random.spread(cell.velocity, cell.velocityRange, .velocity) * number(layer, .velocity, at: birth)
        let direction = random.spread(cell.emissionLongitude, cell.emissionRange, .direction)
        let latitude = cell.emissionLatitude
        let planar = speed * cos(latitude)
        let velocity = Point(planar * cos(direction), planar * sin(direction))
        let acceleration = Point(cell.xAcceleration, cell.yAcceleration)
        let position = origin + place + velocity * age + acceleration * (0.5 * age * age)
        let scale =
            random.spread(cell.scale, cell.scaleRange, .scale) * number(layer, .scale, at: birth) + cell.scaleSpeed
            * age
        let spin = random.spread(cell.spin, cell.spinRange, .spin) * number(layer, .spin, at: birth)
        func channel(_ value: Double, _ range: Double, _ speed: Double, _ attribute: ParticleRandom.Attribute) -> Double
        {
            min(max(random.spread(value, range, attribute) + speed * age, 0), 1)
        }
        let color = Color(
            red: channel(cell.color.red, cell.redRange, cell.redSpeed, .red),
            green: channel(cell.color.green, cell.greenRange, cell.greenSpeed, .green),
            blue: channel(cell.color.blue, cell.blueRange, cell.blueSpeed, .blue),
            alpha: channel(cell.color.alpha, cell.alphaRange, cell.alphaSpeed, .alpha))
        return Particle(
            cell: cellIndex, cellName: cell.name, index: index, age: age, position: position, scale: scale,
            rotation: spin * age, color: color)
    }

    /// Where on the emitter a particle is born, relative to `emitterPosition`.
    static func birthPlace(
        _ shape: EmitterConfiguration.Shape, _ mode: EmitterConfiguration.Mode, size: Point, random: ParticleRandom
    ) -> Point {
        let u = random.unit(.placeX)
        let v = random.unit(.placeY)
        let (w, h) = (size.x, size.y)
        switch shape {
        case .point:
            return .zero
        case .line:
            if mode == .points { return Point(random.unit(.corner) < 0.5 ? -w / 2 : w / 2, 0) }
            return Point((u - 0.5) * w, 0)
        case .rectangle, .cuboid:
            switch mode {
            case .points:
                let corner = Int(random.unit(.corner) * 4)
                return Point(corner % 2 == 0 ? -w / 2 : w / 2, corner < 2 ? -h / 2 : h / 2)
            case .outline:
                // A point along the perimeter, uniform by length.
                let perimeter = 2 * (w + h)
                guard perimeter > 0 else { return .zero }
                var d = u * perimeter
                if d < w { return Point(d - w / 2, -h / 2) }
                d -= w
                if d < h { return Point(w / 2, d - h / 2) }
                d -= h
                if d < w { return Point(w / 2 - d, h / 2) }
                d -= w
                return Point(-w / 2, h / 2 - d)
            case .surface, .volume:
                return Point((u - 0.5) * w, (v - 0.5) * h)
            }
        case .circle, .sphere:
            let radius = w / 2
            let angle = 2 * Double.pi * u
            switch mode {
            case .points: return .zero
            case .outline: return Point(radius * cos(angle), radius * sin(angle))
            case .surface, .volume:
                let r = radius * v.squareRoot()
                return Point(r * cos(angle), r * sin(angle))
            }
        }
    }
}

/// Animated birth-rate integrals of one render, by emitter layer and cell: cumulative counts
/// on the fixed grid, extended as later frames need them. Without it every frame integrated
/// from the cell's start again (an hour-long scene cost hours).
///
/// Each cell's grid holds 240 counts a second of the scene it has reached (about 7 MB an hour).
public final class EmissionCache: Sendable {
    private struct Key: Hashable {
        let layer: Int
        let cell: Int
    }

    private let grids = Mutex<[Key: [Double]]>([:])

    public init() {}

    /// Grid points a cell's integral holds so far (0 before any frame asked).
    package func gridPoints(layer: Int, cell: Int) -> Int {
        grids.withLock { $0[Key(layer: layer, cell: cell)]?.count ?? 0 }
    }

    /// Cumulative counts at `start + i · step` for i up to at least `count − 1`, extending the
    /// cell's grid with `rate` where it stops short.
    func grid(layer: Int, cell: Int, count: Int, start: Double, rate: (Double) -> Double) -> [Double] {
        grids.withLock { grids in
            let key = Key(layer: layer, cell: cell)
            var counts = grids[key] ?? [0]
            if counts.count < count {
                // Grow geometrically, so frames that advance a little at a time cost linear work.
                let target = max(count, min(counts.count * 2, count + 240 * 60))
                let step = Timeline.emissionStep
                counts.reserveCapacity(target)
                var previous = rate(start + Double(counts.count - 1) * step)
                while counts.count < target {
                    let current = rate(start + Double(counts.count) * step)
                    counts.append(counts[counts.count - 1] + (previous + current) / 2 * step)
                    previous = current
                }
                grids[key] = counts
            }
            return counts
        }
    }
}

/// How many particles a cell has emitted by a time: the integral of its birth rate, on a fixed
/// grid from the cell's start (trapezoids of ``Timeline/emissionStep``, linear between grid
/// points), so a count never depends on which frames are sampled.
struct EmissionCurve {
    let start: Double
    let end: Double
    /// Constant rate, or cumulative counts on a fixed grid from `start` (covering `end`).
    let rate: Double?
    let cumulative: [Double]

    init(
        timeline: Timeline, layer: Int, cell: Int, cellRate: Double, from start: Double, to end: Double,
        cache: EmissionCache
    ) {
        self.start = start
        self.end = end
        let property = LayerProperty.birthRate
        let track = timeline.layers[layer]
        precondition(!timeline.leavesReleased, "particles read through a timeline whose leaves were released")
        let animated = !(track.leavesByProperty[property.ordinal] ?? []).isEmpty
        let history = track.model[property.ordinal]
        if !animated && (history?.isConstant ?? true) {
            rate = cellRate * timeline.number(layer, property, at: start)
            cumulative = []
            return
        }
        rate = nil
        let steps = Int(((end - start) / Timeline.emissionStep).rounded(.up))
        cumulative = cache.grid(layer: layer, cell: cell, count: steps + 2, start: start) { t in
            cellRate * max(0, timeline.number(layer, property, at: t))
        }
    }

    /// Particles emitted between the start and `time`.
    func count(at time: Double) -> Double {
        let t = min(max(time, start), end)
        if let rate { return rate * (t - start) }
        let position = (t - start) / Timeline.emissionStep
        let i = min(Int(position.rounded(.down)), cumulative.count - 2)
        return cumulative[i] + (cumulative[i + 1] - cumulative[i]) * (position - Double(i))
    }

    /// When the particle with birth index `k` was born (the count reaching `k`), or infinity
    /// when the count by `end` does not reach it.
    func time(ofBirth k: Double) -> Double {
        if let rate { return rate > 0 ? start + k / rate : .infinity }
        guard count(at: end) > k else { return .infinity }
        var low = 0
        var high = min(Int(((end - start) / Timeline.emissionStep).rounded(.up)) + 1, cumulative.count - 1)
        while high - low > 1 {
            let mid = (low + high) / 2
            if cumulative[mid] <= k { low = mid } else { high = mid }
        }
        let span = cumulative[high] - cumulative[low]
        let fraction = span > 0 ? (k - cumulative[low]) / span : 0
        return min(start + (Double(low) + fraction) * Timeline.emissionStep, end)
    }
}
