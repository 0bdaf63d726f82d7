import ChoreoEngine
import ChoreoFormat
import Testing

@testable import ChoreoFormat

/// UIKit and Core Animation spellings, "did you mean", and the `suspicious-unit` warning.
@Suite struct VocabularyTests {
    static func decode(_ text: String) throws -> Scene {
        try SceneDecoder.decode(bytes: Array(text.utf8)).scene
    }

    static func errors(_ text: String) -> [FieldError] {
        do {
            _ = try SceneDecoder.decode(bytes: Array(text.utf8))
            return []
        } catch {
            if case .invalid(let failure) = error { return failure.errors }
            return [FieldError(path: "$", message: "not JSON")]
        }
    }

    static func scene(layer: String = "\"id\": \"L\"", _ actions: String = "") -> String {
        """
        {"layers": [{\(layer)}, {"id": "other"}], "script": [{"at": 0, "do": [\(actions)]}]}
        """
    }

    static let sampleValues: [String: String] = [
        "opacity": "0.5", "position": "[1, 2]", "hidden": "true", "masksToBounds": "true",
    ]

    /// Every UIView property name is the CALayer property, on a layer, in `set`, in a block's
    /// changes, in a state and as a key path.
    @Test(arguments: Vocabulary.propertyAliases.sorted { $0.key < $1.key })
    func propertyAliases(alias: String, canonical: String) throws {
        let value = try #require(Self.sampleValues[canonical])
        func both(_ make: (String) -> String) throws {
            #expect(try Self.decode(make(alias)) == Self.decode(make(canonical)), "\(alias) in \(make(alias))")
        }
        try both { Self.scene(layer: "\"id\": \"L\", \"\($0)\": \(value)") }
        try both { Self.scene("{\"set\": {\"L\": {\"\($0)\": \(value)}}}") }
        try both { Self.scene("{\"animate\": {\"duration\": 1, \"changes\": {\"L\": {\"\($0)\": \(value)}}}}") }
        try both { Self.scene(layer: "\"id\": \"L\", \"states\": {\"on\": {\"\($0)\": \(value)}}") }
        if canonical == "opacity" || canonical == "position" {
            try both {
                Self.scene(
                    "{\"add\": {\"type\": \"basic\", \"keyPath\": \"\($0)\", \"toValue\": \(value)}, \"layer\": \"L\"}")
            }
        }
    }

    /// Every Swift property name of CAAnimation is the format's field.
    @Test(arguments: Vocabulary.animationFieldAliases.sorted { $0.key < $1.key })
    func animationFieldAliases(alias: String, canonical: String) throws {
        func make(_ field: String) -> String {
            Self.scene(
                "{\"add\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"toValue\": 0, \"\(field)\": false}, \"layer\": \"L\"}"
            )
        }
        #expect(try Self.decode(make(alias)) == Self.decode(make(canonical)))
        // Both spellings at once is an error naming the alias.
        let both = Self.scene(
            "{\"add\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"\(alias)\": false, \"\(canonical)\": true}, \"layer\": \"L\"}"
        )
        #expect(Self.errors(both).map(\.path) == ["$.script[0].do[0].add.\(alias)"])
    }

    /// The Swift argument labels of the UIView block calls.
    /// What a Swift user writes at once: `CAMediaTimingFunction(controlPoints:)` as an object,
    /// `CABasicAnimation` as the type, UIColor's names, and a rotation in degrees warned about.
    @Test func swiftSpellingsOfTimingTypesAndColours() throws {
        let added = Self.scene(
            layer: #""id": "L", "backgroundColor": "systemGreen", "borderColor": "UIColor.white""#,
            #"{"add": {"type": "CABasicAnimation", "keyPath": "opacity", "toValue": 0, "duration": 1, "timingFunction": {"controlPoints": [0.4, 0, 0.2, 1]}}, "layer": "L"}"#
        )
        let scene = try Self.decode(added)
        #expect(
            scene.layers[0].values[.backgroundColor]
                == .color(Color(red: 52 / 255, green: 199 / 255, blue: 89 / 255, alpha: 1)))
        #expect(scene.layers[0].values[.borderColor] == .color(Color(red: 1, green: 1, blue: 1, alpha: 1)))
        let misspelt = Self.errors(Self.scene(layer: #""id": "L", "backgroundColor": "systemGreeen""#))
        #expect(misspelt.first?.suggestion == "systemGreen", "\(misspelt)")
        let steps = Self.errors(
            Self.scene(
                #"{"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "timingFunction": {"position": "end"}}, "layer": "L"}"#
            ))
        #expect(steps.first?.message.contains("controlPoints") == true, "\(steps)")
        let degrees = try Self.decode(
            Self.scene(
                #"{"add": {"type": "basic", "keyPath": "transform.rotation.z", "toValue": 90, "duration": 1}, "layer": "L"}"#
            ))
        #expect(degrees.warnings.contains { $0.code == .suspiciousUnit && $0.path?.hasSuffix("toValue") == true })
        let spinner = try Self.decode(
            Self.scene(
                #"{"add": {"type": "basic", "keyPath": "transform.rotation.z", "byValue": 6.283185307179586, "duration": 1}, "layer": "L"}"#
            ))
        #expect(!spinner.warnings.contains { $0.code == .suspiciousUnit })
    }

    /// `UIViewPropertyAnimator(duration:dampingRatio:animations:)`: the ratio at the animator's
    /// top level is its spring, as `spring: {"dampingRatio": …}` is.
    @Test func propertyAnimatorDampingRatio() throws {
        func animator(_ timing: String) -> String {
            Self.scene(
                #"{"propertyAnimator": {"id": "a", "duration": 1, \#(timing), "changes": {"L": {"opacity": 0}}}}"#)
        }
        let plain = try Self.decode(animator(#""dampingRatio": 0.6"#))
        let spelled = try Self.decode(animator(#""spring": {"dampingRatio": 0.6}"#))
        #expect(plain.script == spelled.script)
        #expect(Self.errors(animator(#""dampingRatio": 0.6, "curve": "easeIn""#)).count == 1)
        #expect(
            Self.errors(animator(#""dampingRatio": 2"#)).map(\.path).contains(
                "$.script[0].do[0].propertyAnimator.dampingRatio"))
    }

    /// An emitter's shape and mode in Core Animation's spellings.
    @Test func emitterConstants() throws {
        func emitter(_ shape: String, _ mode: String) -> String {
            Self.scene(layer: #""id": "L", "type": "emitter", "emitterShape": "\#(shape)", "emitterMode": "\#(mode)""#)
        }
        for (shape, mode) in [
            ("kCAEmitterLayerLine", "kCAEmitterLayerOutline"), (".line", ".outline"),
            ("CAEmitterLayerEmitterShape.line", "CAEmitterLayerEmitterMode.outline"), ("line", "outline"),
        ] {
            let layer = try Self.decode(emitter(shape, mode)).layers[0]
            #expect(layer.emitter?.shape == .line && layer.emitter?.mode == .outline, "\(shape) \(mode)")
        }
        #expect(Self.errors(emitter("kCAEmitterLayerCirle", "points")).first?.suggestion == "circle")
    }

    /// CGAffineTransform's initializers as transforms.
    @Test func affineTransformInitializers() throws {
        func transform(_ value: String) throws -> Value? {
            try Self.decode(Self.scene(layer: #""id": "L", "transform": \#(value)"#)).layers[0].values[.transform]
        }
        #expect(try transform(#"{"rotationAngle": 0.5}"#) == transform(#"{"rotate": 0.5}"#))
        #expect(try transform(#"{"scaleX": 2, "y": 3}"#) == transform(#"{"scale": [2, 3, 1]}"#))
        #expect(try transform(#"{"translationX": 4, "y": 5}"#) == transform(#"{"translate": [4, 5]}"#))
        #expect(
            Self.errors(Self.scene(layer: #""id": "L", "transform": {"scaleX": 2}"#)).map(\.path) == [
                "$.layers[0].transform.y"
            ])
    }

    @Test func blockArgumentLabels() throws {
        let swift = Self.scene(
            """
            {"animate": {"withDuration": 0.5, "delay": 0.1, "usingSpringWithDamping": 0.7, "initialSpringVelocity": 0.5,
                         "animations": {"L": {"alpha": 0}}}},
            {"animateKeyframes": {"withDuration": 1, "animations": [
                {"withRelativeStartTime": 0, "relativeDuration": 0.5, "animations": {"L": {"center": [5, 5]}}}]}},
            {"transition": {"with": "L", "duration": 0.3, "options": [".transitionCrossDissolve"],
                            "animations": {"L": {"alpha": 1}}}}
            """)
        let canonical = Self.scene(
            """
            {"animate": {"duration": 0.5, "delay": 0.1, "spring": {"dampingRatio": 0.7, "initialVelocity": 0.5},
                         "changes": {"L": {"opacity": 0}}}},
            {"animateKeyframes": {"duration": 1, "keyframes": [
                {"relativeStartTime": 0, "relativeDuration": 0.5, "changes": {"L": {"position": [5, 5]}}}]}},
            {"transition": {"layer": "L", "duration": 0.3, "options": ["transitionCrossDissolve"],
                            "changes": {"L": {"opacity": 1}}}}
            """)
        #expect(try Self.decode(swift) == Self.decode(canonical))
    }

    /// Every enumeration takes its Core Animation constant (`kCAFillModeForwards`), its Swift
    /// case (`.forwards`, `CAMediaTimingFillMode.forwards`) and its own name.
    @Test func enumerationSpellings() {
        let tables: [(Vocabulary.Names, String)] = [
            (Vocabulary.fillModes, "kCAFillMode"), (Vocabulary.timingFunctionNames, "kCAMediaTimingFunction"),
            (Vocabulary.calculationModes, "kCAAnimation"), (Vocabulary.rotationModes, "kCAAnimationRotate"),
            (Vocabulary.transitionTypes, "kCATransition"), (Vocabulary.transitionSubtypes, "kCATransition"),
        ]
        for (names, constantPrefix) in tables {
            for name in names.canonical {
                let capitalized = name.prefix(1).uppercased() + name.dropFirst()
                #expect(names.resolve(name) == name)
                #expect(names.resolve(".\(name)") == name)
                #expect(names.resolve("Swift.Type.\(name)") == name)
                #expect(names.resolve(constantPrefix + capitalized) == name, "\(constantPrefix + capitalized)")
            }
            #expect(names.resolve("nonsense") == nil)
        }
        #expect(Vocabulary.rotationModes.resolve(".rotateAuto") == "auto")
        #expect(Vocabulary.rotationModes.resolve(".rotateAutoReverse") == "autoReverse")
        #expect(Vocabulary.timingFunctionNames.resolve("easeInOut") == "easeInEaseOut")
        #expect(Vocabulary.timingFunctionNames.resolve(".easeInOut") == "easeInEaseOut")
        // Through the decoder.
        let swift = Self.scene(
            """
            {"add": {"type": "keyframe", "keyPath": "position", "path": "M0 0 L10 0", "calculationMode": ".cubicPaced",
                     "rotationMode": "kCAAnimationRotateAuto", "fillMode": "kCAFillModeBoth",
                     "timingFunction": ".easeInOut"}, "layer": "L"},
            {"add": {"type": "transition", "transitionType": "kCATransitionPush", "subtype": ".fromLeft"}, "layer": "L"}
            """)
        let canonical = Self.scene(
            """
            {"add": {"type": "keyframe", "keyPath": "position", "path": "M0 0 L10 0", "calculationMode": "cubicPaced",
                     "rotationMode": "auto", "fillMode": "both", "timingFunction": "easeInEaseOut"}, "layer": "L"},
            {"add": {"type": "transition", "transitionType": "push", "subtype": "fromLeft"}, "layer": "L"}
            """)
        #expect(throws: Never.self) { try Self.decode(swift) }
        #expect((try? Self.decode(swift)) == (try? Self.decode(canonical)))
    }

    /// UIView.AnimationOptions as Swift writes them, each option.
    @Test(arguments: SceneDecoder.OptionSet.transition.names)
    func dottedOptions(option: String) throws {
        func make(_ name: String) -> String {
            Self.scene("{\"transition\": {\"layer\": \"L\", \"duration\": 1, \"options\": [\"\(name)\"]}}")
        }
        #expect(try Self.decode(make(".\(option)")) == Self.decode(make(option)))
        #expect(try Self.decode(make("UIView.AnimationOptions.\(option)")) == Self.decode(make(option)))
    }

    /// CGPoint, CGSize and CGRect as Swift prints them.
    @Test func coreGraphicsStructures() throws {
        let objects = Self.scene(
            layer: """
                "id": "L", "frame": {"origin": {"x": 1, "y": 2}, "size": {"width": 30, "height": 40}},
                "anchorPoint": {"x": 0, "y": 0}, "shadowOffset": {"width": 0, "height": 3}
                """)
        let arrays = Self.scene(
            layer: "\"id\": \"L\", \"frame\": [1, 2, 30, 40], \"anchorPoint\": [0, 0], \"shadowOffset\": [0, 3]")
        #expect(try Self.decode(objects) == Self.decode(arrays))
        let errors = Self.errors(Self.scene(layer: "\"id\": \"L\", \"position\": {\"x\": 1, \"z\": 2}"))
        #expect(errors.map(\.path).contains("$.layers[0].position.z"))
        #expect(errors.map(\.path).contains("$.layers[0].position.y"))
    }

    /// Every other unknown name gets the closest valid one, in `errors[]`.
    @Test(arguments: [
        (#"{"add": {"type": "basic", "keyPath": "opacity", "duraton": 1}, "layer": "L"}"#, "add.duraton", "duration"),
        (#"{"add": {"type": "basic", "keyPath": "opactiy"}, "layer": "L"}"#, "add.keyPath", "opacity"),
        (#"{"add": {"type": "basic", "keyPath": "postion.x"}, "layer": "L"}"#, "add.keyPath", "position.x"),
        (#"{"add": {"type": "basics", "keyPath": "opacity"}, "layer": "L"}"#, "add.type", "basic"),
        (
            #"{"add": {"type": "basic", "keyPath": "opacity", "fillMode": "forward"}, "layer": "L"}"#, "add.fillMode",
            "forwards"
        ),
        (
            #"{"add": {"type": "basic", "keyPath": "opacity", "timingFunction": "easeInOutt"}, "layer": "L"}"#,
            "add.timingFunction", "easeInEaseOut"
        ),
        (#"{"add": {"type": "basic", "keyPath": "opacity"}, "layer": "othre"}"#, "layer", "other"),
        (
            #"{"animate": {"duration": 1, "options": ["curveEaseOutt"], "changes": {}}}"#, "animate.options[0]",
            "curveEaseOut"
        ),
        (#"{"animate": {"duration": 1, "changes": {"L": {"opacityy": 1}}}}"#, "animate.changes.L.opacityy", "opacity"),
        (#"{"animat": {"duration": 1, "changes": {}}}"#, "", "animate"),
        (#"{"set": {"L": {"cornerRadiuss": 3}}}"#, "set.L.cornerRadiuss", "cornerRadius"),
    ])
    func didYouMean(action: String, path: String, suggestion: String) {
        let errors = Self.errors(Self.scene(action))
        let expectedPath = "$.script[0].do[0]" + (path.isEmpty ? "" : ".\(path)")
        let error = errors.first { $0.path == expectedPath }
        #expect(error?.suggestion == suggestion, "\(errors)")
        #expect(error?.message.hasSuffix("did you mean \"\(suggestion)\"?") == true)
    }

    /// The query's names too: parameters, key paths, layer ids.
    @Test func queryDidYouMean() throws {
        func errors(_ parameters: [(String, String)]) -> [FieldError] {
            do {
                let query = try SamplingQuery.parse(parameters)
                _ = try RenderPlan.make(scene: Self.decode(Self.scene()), query: query)
                return []
            } catch let failure as ValidationFailure {
                return failure.errors
            } catch {
                return [FieldError(path: "$", message: "\(error)")]
            }
        }
        #expect(errors([("fsp", "4")]).map(\.suggestion) == ["fps"])
        #expect(errors([("properties", "opactiy")]).map(\.suggestion) == ["opacity"])
        #expect(errors([("layers", "othr")]).map(\.suggestion) == ["other"])
    }

    /// Sampling at an fps includes the end time when it falls between two grid times.
    @Test func fpsSamplingIncludesTheEnd() throws {
        let scene = try Self.decode(
            Self.scene(
                "{\"add\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"toValue\": 0, \"duration\": 1.9}, \"layer\": \"L\"}"
            ))
        var query = SamplingQuery()
        query.fps = 7
        let plan = try RenderPlan.make(scene: scene, query: query)
        #expect(plan.times.count == 15 && plan.times.last == 1.9 && plan.times[13] == SceneTime.quantize(13.0 / 7))
        query.fps = 10
        #expect(try RenderPlan.make(scene: scene, query: query).times.count == 20)
    }

    @Test func farFetchedNamesGetNoSuggestion() {
        let errors = Self.errors(Self.scene(#"{"set": {"L": {"zzzzzzzz": 1}}}"#))
        #expect(errors.count == 1 && errors[0].suggestion == nil)
    }

    /// UIView's `frame` setter in `set` and in blocks: bounds size and position through the
    /// anchor point, both animated by `animate`.
    @Test func frameInChanges() throws {
        let text = """
            {"layers": [{"id": "L", "frame": [0, 0, 10, 10], "anchorPoint": [0, 0]}],
             "script": [{"at": 0, "do": [{"set": {"L": {"frame": {"x": 5, "y": 6, "width": 20, "height": 30}}}}]},
                        {"at": 1, "do": [{"animate": {"duration": 1, "options": ["curveLinear"],
                                          "changes": {"L": {"frame": [25, 6, 40, 30]}}}}]}]}
            """
        let timeline = try SceneRunner.run(Self.decode(text))
        #expect(ScriptTests.value(timeline, "L", "position", 0.5) == .point(Point(5, 6)))
        #expect(ScriptTests.value(timeline, "L", "bounds", 0.5) == .rect(Rect(x: 0, y: 0, width: 20, height: 30)))
        #expect(ScriptTests.value(timeline, "L", "position", 1.5) == .point(Point(15, 6)))
        #expect(ScriptTests.value(timeline, "L", "bounds", 1.5) == .rect(Rect(x: 0, y: 0, width: 30, height: 30)))
        #expect(ScriptTests.value(timeline, "L", "position", 2) == .point(Point(25, 6)))
        let both = Self.errors(Self.scene(#"{"set": {"L": {"frame": [0, 0, 1, 1], "center": [0, 0]}}}"#))
        #expect(both.map(\.path) == ["$.script[0].do[0].set.L.frame"])
    }

    /// `suspicious-unit`: durations and delays of a minute or more, rotations beyond a turn.
    @Test func suspiciousUnits() throws {
        let text = """
            {"layers": [{"id": "L", "transform": {"rotate": 45}}],
             "script": [{"at": 2, "do": [
               {"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 300}, "layer": "L"},
               {"animate": {"duration": 0.3, "delay": 90, "changes": {"L": {"opacity": 1}}}},
               {"set": {"L": {"transform": {"rotate": {"z": 6.2}}}}},
               {"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 59.9}, "layer": "L"}]}]}
            """
        let warnings = try Self.decode(text).warnings
        #expect(warnings.allSatisfy { $0.code == .suspiciousUnit && $0.severity == .warning })
        #expect(
            warnings.map(\.path) == [
                "$.layers[0].transform.rotate", "$.script[0].do[0].add.duration", "$.script[0].do[1].animate.delay",
            ])
        #expect(warnings.map(\.time) == [0, 2, 2])
        #expect(warnings[0].fix.contains("0.785398"))
        #expect(warnings[1].fix.contains("0.3"))
        // They reach the response with the run's diagnostics.
        let timeline = try SceneRunner.run(Self.decode(text))
        #expect(timeline.diagnostics.filter { $0.code == .suspiciousUnit }.count == 3)
    }

    /// A spring cut by its 0.25 s default duration: the fix names settlingDuration.
    @Test func springCutNamesSettlingDuration() throws {
        let text = """
            {"layers": [{"id": "L", "opacity": 1}],
             "script": [{"at": 0, "do": [
               {"add": {"type": "spring", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "damping": 5}, "layer": "L"}]}]}
            """
        let timeline = try SceneRunner.run(Self.decode(text))
        let snap = try #require(timeline.diagnostics.first { $0.code == .snapBack })
        #expect(snap.fix.contains("settlingDuration, 2.875 s"))
        #expect(!snap.fix.contains("model value"))
    }
}
