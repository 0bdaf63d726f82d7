// A pan gesture drives a percent-driven dismiss (seed 004, section 4.1), restored to compile:
// the presented sheet's pan begins the dismiss, maps its downward translation to progress
// (300 points is the whole way), and on release finishes past half way or above 800 points a
// second, else cancels. The dismiss animator slides the sheet off the bottom, linearly.
//
//     choreo import examples/code/pan-dismiss.swift
//
// imports to the same timeline as examples/pan-dismiss.json. The drag is the user's, not the
// code's: the import plays one through the recognizer (docs/import.md, "Gestures").
import UIKit

final class PanDismissInteraction: UIPercentDrivenInteractiveTransition {
    weak var presentedVC: UIViewController?
    var isInteractive = false

    @objc func handlePan(_ gesture: UIPanGestureRecognizer) {
        let translation = gesture.translation(in: gesture.view)
        // 300 points of downward drag is the whole dismiss.
        let progress = min(max(translation.y / 300.0, 0.0), 1.0)
        switch gesture.state {
        case .began:
            isInteractive = true
            // The dismiss begins with the gesture: UIKit finds this interaction and waits for it.
            presentedVC?.dismiss(animated: true, completion: nil)
        case .changed:
            guard isInteractive else { return }
            update(progress)
        case .ended, .cancelled:
            guard isInteractive else { return }
            let velocity = gesture.velocity(in: gesture.view)
            if progress > 0.5 || velocity.y > 800 {
                finish()
            } else {
                cancel()
            }
            isInteractive = false
        default:
            break
        }
    }
}

final class DismissAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.4
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: .from) else { return }
        let container = transitionContext.containerView
        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, options: [.curveLinear], animations: {
            fromView.frame.origin.y = container.bounds.height
        }) { _ in
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        }
    }
}

final class SheetViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGray6
        view.layer.cornerRadius = 12
    }
}

final class PresentingViewController: UIViewController, UIViewControllerTransitioningDelegate {
    let interaction = PanDismissInteraction()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .white
        let sheet = SheetViewController()
        sheet.modalPresentationStyle = .custom
        sheet.transitioningDelegate = self
        present(sheet, animated: false)
        sheet.view.frame = CGRect(x: 0, y: 120, width: 375, height: 547)
        interaction.presentedVC = sheet
        let pan = UIPanGestureRecognizer(target: interaction, action: #selector(PanDismissInteraction.handlePan(_:)))
        sheet.view.addGestureRecognizer(pan)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return DismissAnimator()
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? {
        return interaction.isInteractive ? interaction : nil
    }
}
