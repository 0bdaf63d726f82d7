import ChoreoFormat
import ChoreoJSON

/// An imported scene checked as `POST /v1/render` will check it, before the import answers:
/// what the scene format refuses is an error at the line of the code that made it (through the
/// source map), and a scene with no layer is an error, so that an import never answers with a
/// scene that cannot render or shows nothing.
enum SceneCheck {
    static func problems(_ scene: JSONValue, map: [SourceMapping], entry: SourcePosition) -> [ImportDiagnostic] {
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
        do throws(ValidationFailure) {
            _ = try SceneDecoder.decode(scene)
        } catch {
            for field in error.errors {
                let mapping = map.filter {
                    field.path == $0.path || field.path.hasPrefix($0.path + ".") || field.path.hasPrefix($0.path + "[")
                }
                .max { $0.path.count < $1.path.count }
                problems.append(
                    ImportDiagnostic(
                        .error, mapping?.position ?? entry,
                        "this makes a scene that cannot render: \(field.path) \(field.message)",
                        fix: field.suggestion.map { "did you mean \($0)?" }))
            }
        }
        if case .array(let script)? = document["script"], script.isEmpty {
            problems.append(
                ImportDiagnostic(
                    .warning, entry, "nothing in this code animates: the scene is still",
                    fix: "name the method that starts the animation with --entry Type.method"))
        }
        return problems
    }
}
