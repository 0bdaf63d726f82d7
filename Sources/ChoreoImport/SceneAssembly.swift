import ChoreoJSON

/// Imports a lowered source file: evaluates it and assembles the scene.
package enum Importer {
    /// The scene `unit` describes, with diagnostics and a source map. A syntax error or a limit
    /// gone over leaves no scene; so does a scene with no layer, or one the scene format refuses
    /// (``SceneCheck``): an import never answers with a scene that cannot render. `files` names
    /// the import's files (the first is the file imported), for diagnostics in the others.
    package static func run(_ unit: SourceUnit, options: ImportOptions, name: String? = nil, files: [String] = [])
        -> ImportResult
    {
        if unit.diagnostics.contains(where: { $0.severity == .error }) {
            return named(ImportResult(scene: nil, diagnostics: sorted(unit.diagnostics), sourceMap: []), files)
        }
        // A SwiftUI view, unless UIKit code is the entry (top-level code, a view controller).
        let uiKit =
            !unit.topLevel.isEmpty
            || unit.types.contains { $0.methods.contains { ["viewDidLoad", "viewDidAppear"].contains($0.name) } }
        if let view = SwiftUIImporter.viewType(unit, entry: options.entry), options.entry != nil || !uiKit {
            var importer = SwiftUIImporter(unit: unit, type: view, options: options)
            var result = importer.run(name: name)
            result.diagnostics = unit.diagnostics + result.diagnostics
            if let scene = result.scene {
                let problems = SceneCheck.problems(scene, map: result.sourceMap, entry: view.position)
                result.diagnostics += problems
                if problems.contains(where: { $0.severity == .error })
                    || result.diagnostics.contains(where: { $0.severity == .error })
                {
                    result.scene = nil
                    result.sourceMap = []
                }
            }
            result.diagnostics = sorted(result.diagnostics)
            return named(result, files)
        }
        let evaluator = ImportEvaluator(unit: unit, options: options)
        do throws(ImportStop) {
            try evaluator.run()
        } catch {
            return named(
                ImportResult(
                    scene: nil, diagnostics: sorted(evaluator.diagnostics + [error.diagnostic]), sourceMap: []),
                files)
        }
        var map: [SourceMapping] = []
        let scene = evaluator.assemble(name: name, &map)
        let problems = SceneCheck.problems(
            scene, map: map, entry: evaluator.entryPosition, dropped: evaluator.stillSceneCause)
        if problems.contains(where: { $0.severity == .error }) {
            return named(
                ImportResult(scene: nil, diagnostics: sorted(evaluator.diagnostics + problems), sourceMap: []), files)
        }
        return named(
            ImportResult(scene: scene, diagnostics: sorted(evaluator.diagnostics + problems), sourceMap: map), files)
    }

    /// The result with each diagnostic and mapping in a file read with the imported one named.
    static func named(_ result: ImportResult, _ files: [String]) -> ImportResult {
        var result = result
        func name(_ position: SourcePosition) -> String? {
            position.file > 0 && position.file < files.count ? files[position.file] : nil
        }
        for index in result.diagnostics.indices {
            result.diagnostics[index].file = name(result.diagnostics[index].position)
        }
        for index in result.sourceMap.indices { result.sourceMap[index].file = name(result.sourceMap[index].position) }
        return result
    }

    static func sorted(_ diagnostics: [ImportDiagnostic]) -> [ImportDiagnostic] {
        diagnostics.enumerated().sorted { a, b in
            (a.element.position, a.offset) < (b.element.position, b.offset)
        }.map(\.element)
    }
}

extension ImportEvaluator {
    /// The scene document: name, layers (the declared tree, then detached roots), script.
    func assemble(name: String?, _ map: inout [SourceMapping]) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let name { members.append(("name", .string(name))) }
        if let (width, height) = canvasSize, width >= 1, height >= 1 {
            var canvas: [(String, JSONValue)] = [("width", .number(width)), ("height", .number(height))]
            if let canvasBackground { canvas.append(("background", canvasBackground)) }
            members.append(("canvas", .object(JSONObject(canvas))))
        }
        var layers: [JSONValue] = []
        var placed: Set<Int> = []
        for root in declaredRoots {
            layers.append(layerJSON(root, path: "$.layers[\(layers.count)]", detached: false, &placed, &map))
        }
        for index in heap.indices where !placed.contains(index) {
            guard case .layer(let layer) = heap[index], !layer.isCanvas, layer.declaredParent == nil else { continue }
            if layer.maskOf != nil && !layer.everAttached && !layer.unmodelledContent {
                // A mask: written with the layer it masks.
                continue
            } else if let owner = layer.maskOf, !layer.everAttached {
                // A mask that draws what choreo does not model: not applied (it would hide what
                // it should show); declared out of the tree when the code does something to it.
                warn(
                    layer.maskAssigned ?? layer.created,
                    "\(id(of: layer)), the mask of \(owner), draws what choreo does not model (a gradient's colours, an image): \(owner) is drawn unmasked, and the mask is not drawn",
                    fix: "a mask choreo draws is a layer or shape layer with a background colour or a path")
                if needed(index) {
                    layers.append(layerJSON(index, path: "$.layers[\(layers.count)]", detached: true, &placed, &map))
                }
            } else if layer.everAttached {
                // Added by an action later: declared detached until then.
                layers.append(layerJSON(index, path: "$.layers[\(layers.count)]", detached: true, &placed, &map))
            } else if needed(index) {
                // Animated (or holding what is) but never added to a view, as in a snippet:
                // shown as a root layer.
                note(layer.created, "\(id(of: layer)) is not added to a view; it is imported as a root layer")
                layers.append(layerJSON(index, path: "$.layers[\(layers.count)]", detached: false, &placed, &map))
            } else {
                note(layer.created, "\(layer.id ?? layer.className) is never added to a view; it is not in the scene")
            }
        }
        members.append(("layers", .array(layers)))
        var script: [JSONValue] = []
        let ordered = turns.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        for (_, turn) in ordered where !turn.list.items.isEmpty {
            let path = "$.script[\(script.count)]"
            map.append(SourceMapping(path: path, position: turn.position))
            let actions = Piece.list(turn.list).assemble(path + ".do", &map)
            script.append(.object(JSONObject([("at", .number(turn.time)), ("do", actions)])))
        }
        members.append(("script", .array(script)))
        return .object(JSONObject(members))
    }

    /// Whether the scene needs a layer: an action names it or one of its declared sublayers.
    func needed(_ index: Int) -> Bool {
        guard case .layer(let layer) = heap[index] else { return false }
        return layer.referenced || layer.everAttached || layer.declaredChildren.contains { needed($0) }
    }

    private func layerJSON(
        _ index: Int, path: String, detached: Bool, _ placed: inout Set<Int>, _ map: inout [SourceMapping]
    ) -> JSONValue {
        placed.insert(index)
        guard case .layer(let layer) = heap[index] else { return .null }
        map.append(SourceMapping(path: path, position: layer.created))
        var members: [(String, JSONValue)] = [("id", .string(id(of: layer)))]
        if layer.kind != .layer { members.append(("type", .string(layer.kind.rawValue))) }
        if !layer.isView { members.append(("actions", .string("implicit"))) }
        members += layer.declared
        if detached { members.append(("detached", .bool(true))) }
        var sublayers: [JSONValue] = []
        for child in layer.declaredChildren {
            sublayers.append(
                layerJSON(child, path: "\(path).sublayers[\(sublayers.count)]", detached: false, &placed, &map))
        }
        if !sublayers.isEmpty { members.append(("sublayers", .array(sublayers))) }
        if let mask = layer.maskLayer, !placed.contains(mask), case .layer(let masking) = heap[mask],
            !masking.unmodelledContent
        {
            members.append(("mask", layerJSON(mask, path: "\(path).mask", detached: false, &placed, &map)))
        }
        return .object(JSONObject(members))
    }
}
