import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// An imported scene checked as `POST /v1/render` will check it, before the import answers:
/// what the scene format refuses is an error at the line of the code that made it (through the
/// source map), and a scene with no layer is an error, so that an import never answers with a
/// scene that cannot render or shows nothing.
enum SceneCheck {
    /// `dropped` is the first animation the code asked for that was not carried over: a still
    /// scene with one is an error that names it, not a scene that shows nothing of the code.
    static func problems(
        _ scene: JSONValue, map: [SourceMapping], entry: SourcePosition, dropped: ImportDiagnostic? = nil
    ) -> [ImportDiagnostic] {
        guard case .object(let document) = scene else { return [] }
        var problems: [ImportDiagnostic] = []
        if case .array(let layers)? = document["layers"], layers.isEmpty {
            problems.append(
                ImportDiagnostic(
                    .error, entry,
                    "the code makes no layer that is shown: the scene would be empty",
                    fix: "add the views or layers to a view (addSubview, addSublayer), or name the method that does "
                        + "with --entry"))
            return problems
        }
        // A client reads the scene back with the JSON parser, which takes 256 levels at most.
        if let deepest = deepestPath(scene, maximum: JSONParser.maximumDepth) {
            problems.append(
                ImportDiagnostic(
                    .error, position(of: deepest, map: map) ?? entry,
                    "this makes a scene nested more than \(JSONParser.maximumDepth) levels deep (callbacks inside "
                        + "callbacks), which the scene format cannot read back",
                    fix: "start fewer animations from each other's completions"))
            return problems
        }
        let decoded: Scene
        do throws(ValidationFailure) {
            decoded = try SceneDecoder.decode(scene).scene
        } catch {
            for field in error.errors {
                problems.append(
                    ImportDiagnostic(
                        .error, position(of: field.path, map: map) ?? entry,
                        "this makes a scene that cannot render: \(field.path) \(field.message)",
                        fix: field.suggestion.map { "did you mean \($0)?" }))
            }
            return problems
        }
        // What only running the scene finds (an animator's id taken, a call on a layer removed).
        var animates = false
        do throws(RuntimeError) {
            animates = !(try SceneRunner.run(decoded).animations.isEmpty)
        } catch {
            problems.append(
                ImportDiagnostic(
                    .error, position(of: error.path, map: map) ?? entry,
                    "this makes a scene that cannot render: \(error.path) \(error.message)"))
            return problems
        }
        if case .array(let script)? = document["script"], script.isEmpty, !animates, let dropped {
            problems.append(
                ImportDiagnostic(
                    .error, dropped.position,
                    "nothing in this code animates: the first animation it asks for is not carried over — "
                        + dropped.message,
                    fix: dropped.fix))
        } else if case .array(let script)? = document["script"], script.isEmpty, !animates {
            problems.append(
                ImportDiagnostic(
                    .warning, entry, "nothing in this code animates: the scene is still",
                    fix: "name the method that starts the animation with --entry Type.method"))
        }
        problems += CanvasCheck.offCanvas(scene, decoded, map: map)
        return problems
    }

    /// The source position of the code that made the value at `path`: the mapping of the
    /// longest path that contains it.
    private static func position(of path: String, map: [SourceMapping]) -> SourcePosition? {
        map.filter { path == $0.path || path.hasPrefix($0.path + ".") || path.hasPrefix($0.path + "[") }
            .max { $0.path.count < $1.path.count }?.position
    }

    /// The path of a value nested deeper than `maximum` levels, if there is one (iteratively:
    /// the document is the one that may be too deep to recurse into).
    private static func deepestPath(_ document: JSONValue, maximum: Int) -> String? {
        var pending: [(JSONValue, String, Int)] = [(document, "$", 1)]
        while let (value, path, depth) = pending.popLast() {
            switch value {
            case .object(let object):
                if depth > maximum { return path }
                for (key, member) in object.members { pending.append((member, "\(path).\(key)", depth + 1)) }
            case .array(let items):
                if depth > maximum { return path }
                for (index, item) in items.enumerated() { pending.append((item, "\(path)[\(index)]", depth + 1)) }
            default:
                break
            }
        }
        return nil
    }
}
