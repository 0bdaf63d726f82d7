// The watering button (seed 001, section 4.4), restored to compile: a press that shrinks and
// springs back while the status fades in, a spring pop, a cross-dissolved text change and a
// three-act keyframe animation, one second apart.
//
//     choreo import examples/code/watering-button.swift
//
// imports to the same timeline as examples/watering-button.json.
import UIKit

final class WateringViewController: UIViewController {
    private let waterButton = UIButton(type: .system)
    private let statusLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        waterButton.frame = CGRect(x: 120, y: 300, width: 80, height: 80)
        waterButton.layer.cornerRadius = 40
        waterButton.backgroundColor = .systemGreen
        view.addSubview(waterButton)

        statusLabel.frame = CGRect(x: 60, y: 400, width: 200, height: 30)
        statusLabel.text = "2 days left"
        statusLabel.textColor = .systemGray
        statusLabel.alpha = 0
        view.addSubview(statusLabel)
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        press()
        DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.springPop() }
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) { self.changeText() }
        DispatchQueue.main.asyncAfter(deadline: .now() + 3) { self.playThreeActs() }
    }

    /// Two-stage press: shrink in 0.2 s, then spring back while the status fades in.
    func press() {
        print("press")
        UIView.animate(withDuration: 0.2, animations: {
            self.waterButton.transform = CGAffineTransform(scaleX: 0.85, y: 0.85)
        }) { _ in
            UIView.animate(withDuration: 0.35) {
                self.waterButton.transform = .identity
                self.statusLabel.alpha = 1
                self.statusLabel.textColor = .systemGreen
            }
        }
    }

    /// The status label pops out of the centre with a spring (damping 0.55, velocity 0.4).
    func springPop() {
        print("spring pop")
        statusLabel.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        statusLabel.alpha = 0
        UIView.animate(withDuration: 0.6,
                       delay: 0,
                       usingSpringWithDamping: 0.55,
                       initialSpringVelocity: 0.4,
                       options: [.curveEaseOut]) {
            self.statusLabel.transform = .identity
            self.statusLabel.alpha = 1
        }
    }

    /// The text cannot be interpolated: a cross-dissolve replaces it.
    func changeText() {
        print("text change")
        UIView.transition(with: statusLabel,
                          duration: 0.3,
                          options: .transitionCrossDissolve) {
            self.statusLabel.text = "Watered, come back in 3 days"
            self.statusLabel.textColor = .systemGreen
        }
    }

    /// Three acts in 1.1 s: press, overshoot, settle (the times are fractions of the whole).
    func playThreeActs() {
        print("three acts")
        UIView.animateKeyframes(withDuration: 1.1, delay: 0) {
            UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) {
                self.waterButton.transform = CGAffineTransform(scaleX: 0.8, y: 0.8)
            }
            UIView.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.5) {
                self.waterButton.transform = CGAffineTransform(scaleX: 1.15, y: 1.15)
            }
            UIView.addKeyframe(withRelativeStartTime: 0.75, relativeDuration: 0.25) {
                self.waterButton.transform = .identity
            }
        }
    }
}
