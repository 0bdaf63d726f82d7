import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Testing

@testable import ChoreoImport

/// The views UIKit makes have UIKit's defaults, as Apple documents them, not Core Animation's:
/// a label's text is the 17-point system font in the label colour (a CATextLayer's is 36 points
/// and white), a button's title is drawn in its type's colour, and a label or a titled button
/// that no frame sizes takes its content's size.
@Suite struct UIKitDefaultsTests {
    static func run(_ source: String) -> ImportResult {
        Importer.run(SwiftFrontEnd.lower(source), options: ImportOptions())
    }

    @Test func aLabelIsDrawnInUILabelsFontAndColourNotCATextLayers() throws {
        let result = Self.run(
            """
            let caption = UILabel(frame: CGRect(x: 10, y: 10, width: 120, height: 24))
            caption.text = "Saved"
            view.addSubview(caption)
            let raw = CATextLayer()
            raw.string = "raw"
            raw.frame = CGRect(x: 10, y: 60, width: 120, height: 40)
            view.layer.addSublayer(raw)
            UIView.animate(withDuration: 0.3) { caption.alpha = 0 }
            """)
        let scene = sceneText(result.scene)
        #expect(
            scene.contains(
                #"{"id":"caption","type":"text","frame":[10,10,120,24],"fontSize":17,"foregroundColor":"label","string":"Saved"}"#
            ), "\(scene)")
        // A CATextLayer keeps Core Animation's defaults: nothing is added to it.
        #expect(
            scene.contains(
                #"{"id":"raw","type":"text","actions":"implicit","string":"raw","frame":[10,60,120,40]}"#), "\(scene)")
        // What the code sets wins over the default.
        let styled = sceneText(
            Self.run(
                """
                let caption = UILabel()
                caption.font = UIFont.systemFont(ofSize: 24)
                caption.textColor = .systemRed
                caption.frame = CGRect(x: 0, y: 0, width: 100, height: 30)
                view.addSubview(caption)
                UIView.animate(withDuration: 0.3) { caption.alpha = 0 }
                """
            ).scene)
        #expect(styled.contains(#""fontSize":24,"foregroundColor":"systemRed""#), "\(styled)")
    }

    @Test func aButtonsTitleIsALabelInItCentredInTheColourOfItsType() throws {
        let result = Self.run(
            """
            let go = UIButton(type: .system)
            go.frame = CGRect(x: 20, y: 40, width: 120, height: 44)
            go.setTitle("Go", for: .normal)
            go.setTitle("Going", for: .highlighted)
            view.addSubview(go)
            let plain = UIButton(frame: CGRect(x: 20, y: 100, width: 80, height: 30))
            plain.setTitle("Plain", for: .normal)
            view.addSubview(plain)
            UIView.animate(withDuration: 0.3) { go.alpha = 0.5 }
            """)
        let scene = sceneText(result.scene)
        // The system button's title: 15 points in the tint colour, across the button, centred
        // in its height (15 × 1.2 = 18 points high: (44 − 18) / 2 = 13); the highlighted title
        // is not the one shown.
        #expect(
            scene.contains(
                #"{"id":"go","frame":[20,40,120,44],"sublayers":[{"id":"goTitleLabel","type":"text","fontSize":15,"foregroundColor":"systemBlue","alignmentMode":"center","frame":[0,13,120,18],"string":"Go"}]}"#
            ), "\(scene)")
        #expect(!scene.contains("Going"))
        // A custom button (UIButton(frame:)) draws its title in white.
        #expect(
            scene.contains(
                #"{"id":"plainTitleLabel","type":"text","fontSize":15,"foregroundColor":"white","alignmentMode":"center","frame":[0,6,80,18],"string":"Plain"}"#
            ), "\(scene)")
        #expect(!result.diagnostics.contains { $0.message.contains("names another one") })
    }

    @Test func aLabelPlacedByConstraintsAloneTakesItsTextsSize() throws {
        let result = Self.run(
            """
            let hint = UILabel()
            hint.text = "Hello"
            hint.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(hint)
            NSLayoutConstraint.activate([
                hint.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 20),
                hint.topAnchor.constraint(equalTo: view.topAnchor, constant: 100),
            ])
            let sized = UILabel()
            sized.text = "Hi"
            sized.sizeToFit()
            sized.frame.origin = CGPoint(x: 5, y: 5)
            view.addSubview(sized)
            UIView.animate(withDuration: 0.3) { hint.alpha = 0 }
            """)
        let scene = sceneText(result.scene)
        // Five characters of 0.6 em at 17 points, one line of 1.2 em: 51 × 20.4.
        #expect(scene.contains(#""frame":[20,100,51,20.4]"#), "\(scene)")
        #expect(scene.contains(#""frame":[5,5,20.4,20.4]"#), "\(scene)")
    }
}
