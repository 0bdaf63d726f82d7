// The pan-driven percent-driven dismiss of seed 004, section 4.1, in Objective-C: the same
// timeline as pan-dismiss.swift and examples/pan-dismiss.json (the drag is the one the import
// plays, docs/import.md, "Gestures").
//
//     choreo import examples/code/pan-dismiss.m

#import <UIKit/UIKit.h>

@interface PanDismissInteraction : UIPercentDrivenInteractiveTransition
@property (nonatomic, weak) UIViewController *presentedVC;
@property (nonatomic, assign) BOOL isInteractive;
@end

@implementation PanDismissInteraction
- (void)handlePan:(UIPanGestureRecognizer *)gesture {
    CGPoint translation = [gesture translationInView:gesture.view];
    CGFloat progress = MIN(MAX(translation.y / 300.0, 0.0), 1.0);
    switch (gesture.state) {
        case UIGestureRecognizerStateBegan:
            self.isInteractive = YES;
            [self.presentedVC dismissViewControllerAnimated:YES completion:nil];
            break;
        case UIGestureRecognizerStateChanged:
            if (!self.isInteractive) { return; }
            [self updateInteractiveTransition:progress];
            break;
        case UIGestureRecognizerStateEnded:
        case UIGestureRecognizerStateCancelled: {
            if (!self.isInteractive) { return; }
            CGPoint velocity = [gesture velocityInView:gesture.view];
            if (progress > 0.5 || velocity.y > 800) {
                [self finishInteractiveTransition];
            } else {
                [self cancelInteractiveTransition];
            }
            self.isInteractive = NO;
            break;
        }
        default:
            break;
    }
}
@end

@interface DismissAnimator : NSObject <UIViewControllerAnimatedTransitioning>
@end
@implementation DismissAnimator
- (NSTimeInterval)transitionDuration:(id<UIViewControllerContextTransitioning>)transitionContext { return 0.4; }
- (void)animateTransition:(id<UIViewControllerContextTransitioning>)transitionContext {
    UIView *fromView = [transitionContext viewForKey:UITransitionContextFromViewKey];
    UIView *container = [transitionContext containerView];
    [UIView animateWithDuration:[self transitionDuration:transitionContext] delay:0 options:UIViewAnimationOptionCurveLinear animations:^{
        CGRect frame = fromView.frame;
        frame.origin.y = container.bounds.size.height;
        fromView.frame = frame;
    } completion:^(BOOL finished) {
        [transitionContext completeTransition:![transitionContext transitionWasCancelled]];
    }];
}
@end

@interface SheetViewController : UIViewController
@end
@implementation SheetViewController
- (void)viewDidLoad {
    [super viewDidLoad];
    self.view.backgroundColor = [UIColor systemGray6Color];
    self.view.layer.cornerRadius = 12;
}
@end

@interface PresentingViewController : UIViewController <UIViewControllerTransitioningDelegate>
@property (nonatomic, strong) PanDismissInteraction *interaction;
@end
@implementation PresentingViewController
- (void)viewDidLoad {
    [super viewDidLoad];
    self.view.backgroundColor = [UIColor whiteColor];
    self.interaction = [[PanDismissInteraction alloc] init];
    SheetViewController *sheet = [[SheetViewController alloc] init];
    sheet.modalPresentationStyle = UIModalPresentationCustom;
    sheet.transitioningDelegate = self;
    [self presentViewController:sheet animated:NO completion:nil];
    sheet.view.frame = CGRectMake(0, 120, 375, 547);
    self.interaction.presentedVC = sheet;
    UIPanGestureRecognizer *pan = [[UIPanGestureRecognizer alloc] initWithTarget:self.interaction action:@selector(handlePan:)];
    [sheet.view addGestureRecognizer:pan];
}
- (id<UIViewControllerAnimatedTransitioning>)animationControllerForDismissedController:(UIViewController *)dismissed {
    return [[DismissAnimator alloc] init];
}
- (id<UIViewControllerInteractiveTransitioning>)interactionControllerForDismissal:(id<UIViewControllerAnimatedTransitioning>)animator {
    return self.interaction.isInteractive ? self.interaction : nil;
}
@end
