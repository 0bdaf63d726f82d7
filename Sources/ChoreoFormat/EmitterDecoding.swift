import ChoreoEngine
import ChoreoJSON

/// Emitter layers: `emitterShape`, `emitterMode`, `seed` and `emitterCells` (CAEmitterCell).
extension SceneDecoder {
    static let emitterFields: Set<String> = ["emitterShape", "emitterMode", "seed", "emitterCells"]

    static var cellNumberFields: [(String, WritableKeyPath<EmitterCell, Double>, Double, Double)] {
        [
            ("birthRate", \.birthRate, 0, FormatLimits.maxParticleBirthRate),
            ("lifetime", \.lifetime, 0, Limits.maxSceneTime),
            ("lifetimeRange", \.lifetimeRange, 0, Limits.maxSceneTime),
            ("velocity", \.velocity, -1e6, 1e6), ("velocityRange", \.velocityRange, 0, 1e6),
            ("emissionLatitude", \.emissionLatitude, -1e3, 1e3), ("emissionLongitude", \.emissionLongitude, -1e3, 1e3),
            ("emissionRange", \.emissionRange, 0, 1e3),
            ("xAcceleration", \.xAcceleration, -1e6, 1e6), ("yAcceleration", \.yAcceleration, -1e6, 1e6),
            ("zAcceleration", \.zAcceleration, -1e6, 1e6),
            ("scale", \.scale, -1e3, 1e3), ("scaleRange", \.scaleRange, 0, 1e3),
            ("scaleSpeed", \.scaleSpeed, -1e3, 1e3),
            ("spin", \.spin, -1e3, 1e3), ("spinRange", \.spinRange, 0, 1e3),
            ("redRange", \.redRange, 0, 1), ("greenRange", \.greenRange, 0, 1), ("blueRange", \.blueRange, 0, 1),
            ("alphaRange", \.alphaRange, 0, 1),
            ("redSpeed", \.redSpeed, -1e3, 1e3), ("greenSpeed", \.greenSpeed, -1e3, 1e3),
            ("blueSpeed", \.blueSpeed, -1e3, 1e3), ("alphaSpeed", \.alphaSpeed, -1e3, 1e3),
            ("beginTime", \.beginTime, 0, Limits.maxSceneTime), ("duration", \.duration, 0, Limits.maxSceneTime),
        ]
    }

    mutating func decodeEmitter(_ object: JSONObject, _ path: String, type: LayerType) -> EmitterConfiguration? {
        let present = Self.emitterFields.filter { object[$0] != nil }
        guard type == .emitter else {
            for field in present.sorted() { reader.fail("\(path).\(field)", "is a field of emitter layers only") }
            return nil
        }
        var emitter = EmitterConfiguration()
        if let shape = choice(object, "emitterShape", path, EmitterConfiguration.Shape.self) { emitter.shape = shape }
        if let mode = choice(object, "emitterMode", path, EmitterConfiguration.Mode.self) { emitter.mode = mode }
        if let v = object["seed"], let n = reader.integer(v, "\(path).seed", min: 0, max: Int(UInt32.max)) {
            emitter.seed = UInt32(n)
        }
        if let v = object["emitterCells"], let cells = reader.array(v, "\(path).emitterCells") {
            if cells.count > FormatLimits.maxEmitterCells {
                reader.fail("\(path).emitterCells", "an emitter may have at most \(FormatLimits.maxEmitterCells) cells")
            }
            for (index, element) in cells.prefix(FormatLimits.maxEmitterCells).enumerated() {
                if let cell = decodeCell(element, "\(path).emitterCells[\(index)]") { emitter.cells.append(cell) }
            }
        }
        // Live particles are bounded: birth rate × longest lifetime, with the layer's multipliers.
        let layerRate = multiplier(object, "birthRate")
        let layerLifetime = multiplier(object, "lifetime")
        for (index, cell) in emitter.cells.enumerated() {
            let alive = cell.birthRate * layerRate * (cell.lifetime + cell.lifetimeRange / 2) * layerLifetime
            if alive > Double(Limits.maxParticlesPerCell) {
                reader.fail(
                    "\(path).emitterCells[\(index)].birthRate",
                    "up to \(JSONReader.format(alive)) particles would be alive at once; at most \(Limits.maxParticlesPerCell) per cell (lower birthRate or lifetime)"
                )
            }
        }
        return emitter
    }

    /// One of an enumeration's raw values, or an error listing them.
    private mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ object: JSONObject, _ field: String, _ path: String, _ type: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        guard let v = object[field], let given = reader.string(v, "\(path).\(field)") else { return nil }
        guard let value = Choice(rawValue: Self.emitterConstant(given)) else {
            reader.failUnknown(
                "\(path).\(field)", "must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))",
                Self.emitterConstant(given),
                among: Choice.allCases.map(\.rawValue))
            return nil
        }
        return value
    }

    /// Core Animation's spellings of a shape or mode, as the format's name: `kCAEmitterLayerPoint`
    /// (Objective-C), `.point` and `CAEmitterLayerEmitterShape.point` (Swift) are `point`.
    static func emitterConstant(_ given: String) -> String {
        var name = Substring(given)
        for prefix in ["CAEmitterLayerEmitterShape.", "CAEmitterLayerEmitterMode.", "kCAEmitterLayer", "."]
        where name.hasPrefix(prefix) {
            name = name.dropFirst(prefix.count)
        }
        guard let first = name.first else { return given }
        return first.lowercased() + name.dropFirst()
    }

    private func multiplier(_ object: JSONObject, _ name: String) -> Double {
        if case .number(let n)? = object[name] { return max(n, 0) }
        return 1
    }

    private static let cellFields: Set<String> = Set(cellNumberFields.map(\.0)).union(["name", "color", "contents"])

    private mutating func decodeCell(_ json: JSONValue, _ path: String) -> EmitterCell? {
        guard let object = reader.object(json, path) else { return nil }
        reader.rejectUnknown(object, path, allowed: Self.cellFields)
        var cell = EmitterCell()
        if let v = object["name"], let name = reader.string(v, "\(path).name") { cell.name = name }
        for (name, keyPath, low, high) in Self.cellNumberFields {
            if let v = object[name], let n = reader.number(v, "\(path).\(name)", min: low, max: high) {
                cell[keyPath: keyPath] = n
            }
        }
        if let v = object["color"], case .color(let color)? = reader.value(v, kind: .color, "\(path).color") {
            cell.color = color
        }
        if let v = object["contents"] {
            switch v {
            case .string("dot"): cell.contents = .dot
            case .string("square"): cell.contents = .square
            default:
                if let n = reader.numbers(v, "\(path).contents", count: 2) {
                    cell.contents = .size(Point(n[0], n[1]))
                } else {
                    reader.fail("\(path).contents", "must be \"dot\", \"square\" or a size [width, height]")
                }
            }
        }
        return cell
    }
}
