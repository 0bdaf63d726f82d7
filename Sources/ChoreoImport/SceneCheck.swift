import ChoreoEngine
import ChoreoFormat
import ChoreoJSON

/// An imported scene checked as `POST /v1/render` will check it, before the import answers:
/// what the scene format refuses is an error at the line of the code that made it (through the
/// source map), and a scene with no layer is an error, so that an import never answers with a
/// scene that cannot render or shows nothing.
enum SceneCheck {
    /// `dropped` says why a still scene is still although the code asks for animations
    /// (``ImportEvaluator/stillSceneCause``): a still scene with one is that error, not a scene
    /// that shows nothing of the code.
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
        // Still: nothing animates, and what the script changes it changes at the start (a `set`
        // at 0 is how the first frame looks, not a movement).
        var still = !animates
        if case .array(let script)? = document["script"] {
            for step in script {
                guard case .object(let group) = step else { continue }
                if case .number(let at)? = group["at"], at > 0 { still = false }
                if group["at"] == nil { still = false }
            }
        }
        if still, let dropped {
            problems.append(ImportDiagnostic(.error, dropped.position, dropped.message, fix: dropped.fix))
        } else if still {
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

extension ImportEvaluator {
    /// Why the scene would be still although the code asks for an animation (a still scene is
    /// then this error, never an import that exits 0 showing less than the code): the first
    /// animation the code asked for that was not carried over (``dropped(_:_:fix:)``); else,
    /// when the source calls an animation API (``AnimationRequest``), the first call of the run
    /// that was not carried over (a skipped call, an unknown value) — what the animation
    /// depended on; else that animation call itself, which the entry point never reaches.
    /// Nil when the code asks for no animation: a still scene is then only a warning.
    var stillSceneCause: ImportDiagnostic? {
        if let firstDropped {
            return ImportDiagnostic(
                .error, firstDropped.position,
                "nothing in this code animates: the first animation it asks for is not carried over — "
                    + firstDropped.message,
                fix: firstDropped.fix)
        }
        guard let request = AnimationRequest.first(in: unit) else { return nil }
        let run = diagnostics.dropFirst(unit.diagnostics.count).filter { $0.severity == .warning }
        let front = unit.diagnostics.filter { $0.severity == .warning }
        if let skipped = run.first(where: AnimationRequest.dropsCode) ?? run.first
            ?? front.first(where: AnimationRequest.dropsCode)
        {
            return ImportDiagnostic(
                .error, skipped.position,
                "nothing in this code animates, though it calls \(request.name): the first call not carried over "
                    + "is here — \(skipped.message)",
                fix: skipped.fix)
        }
        return ImportDiagnostic(
            .error, request.position,
            "nothing in this code animates: \(request.name) is never run from the entry point",
            fix: "name the method that runs it with --entry Type.method (\"entry\" in the API)")
    }
}

/// A call of an animation API in the source, found without running it: UIView's block
/// animations (`animate(withDuration:…)`, `animateKeyframes`, `transition(with:…)`,
/// `transition(from:to:…)`), a property animator started (`startAnimation`,
/// `runningPropertyAnimator`), a Core Animation animation added (`add(_:forKey:)`), and an
/// animated view-controller transition (`present`, `dismiss`, `pushViewController`,
/// `popViewController` with `animated:` not `false`).
struct AnimationRequest {
    let name: String
    let position: SourcePosition

    /// The first such call of the unit, in source order.
    static func first(in unit: SourceUnit) -> AnimationRequest? {
        var found: [AnimationRequest] = []
        SyntaxWalk.expressions(in: unit) { expression in
            guard case .call(let callee, let arguments, let position) = expression else { return }
            let name: String
            switch callee {
            case .member(_, let member, _): name = member
            case .name(let function, _): name = function
            default: return
            }
            let labels = arguments.map(\.label)
            guard isAnimation(name, labels, arguments) else { return }
            // An Objective-C message's first piece is lowered as its first label: `_` here.
            let written = labels.enumerated().map { $0.offset == 0 && $0.element == name ? nil : $0.element }
            found.append(
                AnimationRequest(
                    name: "\(name)(\(written.map { ($0 ?? "_") + ":" }.joined()))", position: position))
        }
        return found.min { $0.position < $1.position }
    }

    private static func isAnimation(_ name: String, _ labels: [String?], _ arguments: [Argument]) -> Bool {
        switch name {
        case "animate", "animateWithDuration":
            return labels.contains { $0 == "withDuration" || $0 == "animations" } || name == "animateWithDuration"
        case "animateKeyframes", "animateKeyframesWithDuration", "runningPropertyAnimator", "startAnimation",
            "addAnimation":
            return true
        case "transition", "transitionWithView", "transitionFromView":
            return labels.contains { $0 == "with" || $0 == "from" || $0 == "duration" }
        case "add":
            return labels.contains("forKey")
        case "present", "presentViewController", "dismiss", "dismissViewControllerAnimated", "pushViewController",
            "popViewController", "popViewControllerAnimated":
            guard
                let animated = arguments.first(where: { $0.label == "animated" })?.value
                    ?? (name.hasSuffix("Animated") ? arguments.first?.value : nil)
            else { return false }
            if case .literal(.bool(false), _) = animated { return false }
            return true
        default:
            return false
        }
    }

    /// Whether a warning says that code was left out (a call skipped, a value unknown), not
    /// only that a value was approximated.
    static func dropsCode(_ diagnostic: ImportDiagnostic) -> Bool {
        ["skipped", "not an API", "unknown", "not imported", "not declared"].contains {
            diagnostic.message.contains($0)
        }
    }
}
