// Two overlapping UIView animations on one view's bounds (seed 002, section 1), restored to
// compile: a 3 s animation grows the view, a second tap 0.5 s later starts a 1 s one that
// shrinks it. UIKit adds the second on top of the first (additively): the view undershoots
// below 100 points before it settles, and both completions report finished = YES.
//
//     choreo import examples/code/overlapping-bounds.m
//
// imports to the same timeline as examples/overlapping-bounds.json.
#import <UIKit/UIKit.h>

@interface MyTestView : UIView
@end

@implementation MyTestView
@end

@interface ViewController : UIViewController
@property (nonatomic, strong) MyTestView *testView;
@end

@implementation ViewController

- (void)viewDidLoad
{
    [super viewDidLoad];
    _testView = [[MyTestView alloc] initWithFrame:CGRectMake(150, 150, 100, 100)];
    _testView.backgroundColor = [UIColor systemOrangeColor];
    [self.view addSubview:_testView];
}

- (void)viewDidAppear:(BOOL)animated
{
    [super viewDidAppear:animated];
    [self btnClick:nil duration:3];
    // The second tap, while the first animation runs.
    dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(0.5 * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
        [self btnClick:nil duration:1];
    });
}

- (void)btnClick:(id)sender duration:(NSTimeInterval)duration
{
    [UIView animateWithDuration:duration animations:^(void){
          if (_testView.bounds.size.width > 150)
          {
              _testView.bounds = CGRectMake(0, 0, 100, 100);
          }
          else
          {
              _testView.bounds = CGRectMake(0, 0, 200, 200);
          }
      } completion:^(BOOL finished){
          if (finished)
          {
              NSLog(@"%@ finished", duration > 2 ? @"grow" : @"shrink");
          }
      }];
}

@end
