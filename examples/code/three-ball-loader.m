// The three-ball loader (seed 003), restored to compile: balls 1 and 3 travel around two
// half-circle arcs (a keyframe animation along a path, cubic, 1.4 s, ease in-out); when the
// animation starts, a UIView animation moves the outer balls out and shrinks all three, then
// brings them back; when it stops, the delegate starts it again (a loop).
//
// The article's fragments are completed here: the loader is hosted by a view controller, and
// its geometry is made consistent (ball 1's centre is as far left of the middle ball as ball
// 3's is right of it, both on the circle the arcs follow).
//
//     choreo import examples/code/three-ball-loader.m
//
// imports to the same timeline as examples/three-ball-loader.json.
#import <UIKit/UIKit.h>
#import <QuartzCore/QuartzCore.h>

#define BALL_RADIUS 20
#define WIDTH 200
#define HEIGHT 200

@interface LoadingView : UIView <CAAnimationDelegate>
@property (nonatomic, strong) UIView *ball_1;
@property (nonatomic, strong) UIView *ball_2;
@property (nonatomic, strong) UIView *ball_3;
@property (nonatomic, strong) UIColor *ballColor;
@end

@implementation LoadingView

- (instancetype)initWithFrame:(CGRect)frame
{
    self = [super initWithFrame:frame];
    if (self) {
        self.ballColor = [UIColor systemIndigoColor];
        CGFloat centerPointY = HEIGHT / 2 - BALL_RADIUS * 0.5;
        CGFloat centerPointX = WIDTH / 2;
        CGPoint centerPoint = CGPointMake(centerPointX, centerPointY);

        UIView *ball_1 = [[UIView alloc] initWithFrame:CGRectMake(centerPoint.x - BALL_RADIUS * 1.5, centerPoint.y, BALL_RADIUS, BALL_RADIUS)];
        ball_1.layer.cornerRadius = BALL_RADIUS / 2; // a circle
        ball_1.backgroundColor = self.ballColor;
        [self addSubview:ball_1];
        self.ball_1 = ball_1;

        UIView *ball_2 = [[UIView alloc] initWithFrame:CGRectMake(centerPoint.x - BALL_RADIUS * 0.5, centerPoint.y, BALL_RADIUS, BALL_RADIUS)];
        ball_2.layer.cornerRadius = BALL_RADIUS / 2;
        ball_2.backgroundColor = self.ballColor;
        [self addSubview:ball_2];
        self.ball_2 = ball_2;

        UIView *ball_3 = [[UIView alloc] initWithFrame:CGRectMake(centerPoint.x + BALL_RADIUS * 0.5, centerPoint.y, BALL_RADIUS, BALL_RADIUS)];
        ball_3.layer.cornerRadius = BALL_RADIUS / 2;
        ball_3.backgroundColor = self.ballColor;
        [self addSubview:ball_3];
        self.ball_3 = ball_3;
    }
    return self;
}

- (void)startLoading
{
    [self rotationAnimation];
}

- (void)rotationAnimation
{
    CGPoint centerPoint = CGPointMake(WIDTH / 2, HEIGHT / 2);
    CGPoint centerBall_1 = CGPointMake(centerPoint.x - BALL_RADIUS, centerPoint.y);
    CGPoint centerBall_2 = CGPointMake(centerPoint.x + BALL_RADIUS, centerPoint.y);

    // 2.1 Ball 1's path: two half circles.
    UIBezierPath *path_ball_1 = [UIBezierPath bezierPath];
    [path_ball_1 moveToPoint:centerBall_1];
    [path_ball_1 addArcWithCenter:centerPoint radius:BALL_RADIUS startAngle:M_PI endAngle:2 * M_PI clockwise:NO];
    UIBezierPath *path_ball_1_1 = [UIBezierPath bezierPath];
    [path_ball_1_1 addArcWithCenter:centerPoint radius:BALL_RADIUS startAngle:0 endAngle:M_PI clockwise:NO];
    [path_ball_1 appendPath:path_ball_1_1];

    // 2.2 Ball 1's animation: this view is its delegate.
    CAKeyframeAnimation *animation_ball_1 = [CAKeyframeAnimation animationWithKeyPath:@"position"];
    animation_ball_1.path = path_ball_1.CGPath;
    animation_ball_1.removedOnCompletion = NO;
    animation_ball_1.fillMode = kCAFillModeForwards;
    animation_ball_1.calculationMode = kCAAnimationCubic;
    animation_ball_1.repeatCount = 1;
    animation_ball_1.duration = 1.4;
    animation_ball_1.delegate = self;
    animation_ball_1.autoreverses = NO;
    animation_ball_1.timingFunction = [CAMediaTimingFunction functionWithName:kCAMediaTimingFunctionEaseInEaseOut];
    [self.ball_1.layer addAnimation:animation_ball_1 forKey:@"animation"];

    // 2.3 Ball 3's path.
    UIBezierPath *path_ball_3 = [UIBezierPath bezierPath];
    [path_ball_3 moveToPoint:centerBall_2];
    [path_ball_3 addArcWithCenter:centerPoint radius:BALL_RADIUS startAngle:0 endAngle:M_PI clockwise:NO];
    UIBezierPath *path_ball_3_1 = [UIBezierPath bezierPath];
    [path_ball_3_1 addArcWithCenter:centerPoint radius:BALL_RADIUS startAngle:M_PI endAngle:M_PI * 2 clockwise:NO];
    [path_ball_3 appendPath:path_ball_3_1];

    // 2.4 Ball 3's animation: no delegate, ball 1's callbacks drive both.
    CAKeyframeAnimation *animation_ball_3 = [CAKeyframeAnimation animationWithKeyPath:@"position"];
    animation_ball_3.path = path_ball_3.CGPath;
    animation_ball_3.removedOnCompletion = NO;
    animation_ball_3.fillMode = kCAFillModeForwards;
    animation_ball_3.calculationMode = kCAAnimationCubic;
    animation_ball_3.repeatCount = 1;
    animation_ball_3.duration = 1.4;
    animation_ball_3.autoreverses = NO;
    animation_ball_3.timingFunction = [CAMediaTimingFunction functionWithName:kCAMediaTimingFunctionEaseInEaseOut];
    [self.ball_3.layer addAnimation:animation_ball_3 forKey:@"rotation"];
}

- (void)animationDidStart:(CAAnimation *)anim
{
    [UIView animateWithDuration:0.3 delay:0.1 options:UIViewAnimationOptionCurveEaseOut | UIViewAnimationOptionBeginFromCurrentState animations:^{
        self.ball_1.transform = CGAffineTransformMakeTranslation(-BALL_RADIUS, 0);
        self.ball_1.transform = CGAffineTransformScale(self.ball_1.transform, 0.7, 0.7);
        self.ball_3.transform = CGAffineTransformMakeTranslation(BALL_RADIUS, 0);
        self.ball_3.transform = CGAffineTransformScale(self.ball_3.transform, 0.7, 0.7);
        self.ball_2.transform = CGAffineTransformScale(self.ball_2.transform, 0.7, 0.7);
    } completion:^(BOOL finished) {
        [UIView animateWithDuration:0.3 delay:0.1 options:UIViewAnimationOptionCurveEaseIn | UIViewAnimationOptionBeginFromCurrentState animations:^{
            self.ball_1.transform = CGAffineTransformIdentity;
            self.ball_3.transform = CGAffineTransformIdentity;
            self.ball_2.transform = CGAffineTransformIdentity;
        } completion:NULL];
    }];
}

- (void)animationDidStop:(CAAnimation *)anim finished:(BOOL)flag
{
    [self rotationAnimation];
}

@end

@interface LoaderViewController : UIViewController
@end

@implementation LoaderViewController

- (void)viewDidLoad
{
    [super viewDidLoad];
    LoadingView *loader = [[LoadingView alloc] initWithFrame:CGRectMake(0, 0, WIDTH, HEIGHT)];
    [self.view addSubview:loader];
    [loader startLoading];
}

@end
