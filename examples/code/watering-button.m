// The watering button (seed 001, section 4.4) in Objective-C: the same timeline as
// watering-button.swift and examples/watering-button.json, through UIKit's Objective-C API
// (animateWithDuration:…, transitionWithView:…, animateKeyframesWithDuration:…, dispatch_after).
//
//     choreo import examples/code/watering-button.m

#import <UIKit/UIKit.h>

@interface WaterViewController : UIViewController
@property (nonatomic, strong) UIButton *waterButton;
@property (nonatomic, strong) UILabel *statusLabel;
@end

@implementation WaterViewController
- (void)viewDidLoad {
    [super viewDidLoad];
    self.waterButton = [UIButton buttonWithType:UIButtonTypeSystem];
    self.waterButton.frame = CGRectMake(120, 300, 80, 80);
    self.waterButton.layer.cornerRadius = 40;
    self.waterButton.backgroundColor = [UIColor systemGreenColor];
    [self.view addSubview:self.waterButton];
    self.statusLabel = [[UILabel alloc] initWithFrame:CGRectMake(60, 400, 200, 30)];
    self.statusLabel.text = @"2 days left";
    self.statusLabel.textColor = [UIColor systemGrayColor];
    self.statusLabel.alpha = 0;
    [self.view addSubview:self.statusLabel];
}
- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    NSLog(@"press");
    [UIView animateWithDuration:0.2 animations:^{
        self.waterButton.transform = CGAffineTransformMakeScale(0.85, 0.85);
    } completion:^(BOOL finished) {
        [UIView animateWithDuration:0.35 animations:^{
            self.waterButton.transform = CGAffineTransformIdentity;
            self.statusLabel.alpha = 1;
            self.statusLabel.textColor = [UIColor systemGreenColor];
        }];
    }];
    dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(1 * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
        NSLog(@"spring pop");
        self.statusLabel.transform = CGAffineTransformMakeScale(0.5, 0.5);
        self.statusLabel.alpha = 0;
        [UIView animateWithDuration:0.6 delay:0 usingSpringWithDamping:0.55 initialSpringVelocity:0.4 options:UIViewAnimationOptionCurveEaseOut animations:^{
            self.statusLabel.transform = CGAffineTransformIdentity;
            self.statusLabel.alpha = 1;
        } completion:nil];
    });
    dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(2 * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
        NSLog(@"text change");
        [UIView transitionWithView:self.statusLabel duration:0.3 options:UIViewAnimationOptionTransitionCrossDissolve animations:^{
            self.statusLabel.text = @"Watered, come back in 3 days";
            self.statusLabel.textColor = [UIColor systemGreenColor];
        } completion:nil];
    });
    dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(3 * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
        NSLog(@"three acts");
        [UIView animateKeyframesWithDuration:1.1 delay:0 options:0 animations:^{
            [UIView addKeyframeWithRelativeStartTime:0 relativeDuration:0.25 animations:^{
                self.waterButton.transform = CGAffineTransformMakeScale(0.8, 0.8);
            }];
            [UIView addKeyframeWithRelativeStartTime:0.25 relativeDuration:0.5 animations:^{
                self.waterButton.transform = CGAffineTransformMakeScale(1.15, 1.15);
            }];
            [UIView addKeyframeWithRelativeStartTime:0.75 relativeDuration:0.25 animations:^{
                self.waterButton.transform = CGAffineTransformIdentity;
            }];
        } completion:nil];
    });
}
@end
