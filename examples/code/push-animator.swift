// A push transition's animator (seed 004, section 2.3), restored to compile: the navigation
// controller's delegate gives a custom animator; animateTransition(using:) adds the incoming
// view to the container, puts it one screen to the right and slides it in with an ease-out
// curve, then completes the transition unless it was cancelled.
//
//     choreo import examples/code/push-animator.swift
//
// imports to the same timeline as examples/push-animator.json.
import UIKit

final class PushAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.35
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromVC = transitionContext.viewController(forKey: .from),
              let toVC = transitionContext.viewController(forKey: .to) else { return }
        _ = fromVC
        let container = transitionContext.containerView
        // Since iOS 8 the incoming view must be added by hand.
        let toView = transitionContext.view(forKey: .to) ?? toVC.view
        container.addSubview(toView)
        // The final frame comes from the context, not from the screen's width.
        let finalFrame = transitionContext.finalFrame(for: toVC)
        toView.frame = finalFrame.offsetBy(dx: UIScreen.main.bounds.width, dy: 0)
        UIView.animate(withDuration: transitionDuration(using: transitionContext),
                       delay: 0,
                       options: [.curveEaseOut],
                       animations: {
            toView.frame = finalFrame
        }) { _ in
            // Without this call UIKit would wait for the transition for ever.
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        }
    }
}

final class DetailViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGray6
    }
}

final class ListViewController: UIViewController, UINavigationControllerDelegate {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .white
        navigationController?.delegate = self
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        showDetail()
    }

    func showDetail() {
        let detail = DetailViewController()
        navigationController?.pushViewController(detail, animated: true)
    }

    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController,
                              to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return operation == .push ? PushAnimator() : nil
    }
}
