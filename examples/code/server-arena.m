// The server arena (seed 000), restored to compile and to run as one file: six server nodes
// fight in turn, 1.2 s apart (a CAAnimationGroup of a scale pulse and a shake inside a
// CATransaction whose completion shrinks and dims the node), and the last one is crowned
// champion (a bounce, the crown dropping on a spring, confetti for 2 s).
//
//     choreo import examples/code/server-arena.m --entry ViewController.startArena
//
// The article's four files (ServerNodeView, ArenaManager, ViewController) are one file here;
// the button's action is the entry point. The crown's glyph and the confetti's image are drawn
// by UIKit on a device: the scene draws the crown as text and the confetti as dots.
#import <UIKit/UIKit.h>
#import <QuartzCore/QuartzCore.h>

typedef NS_ENUM(NSInteger, ServerNodeState) {
    ServerNodeStateIdle = 0,
    ServerNodeStateFighting,
    ServerNodeStateDefeated,
    ServerNodeStateChampion
};

@interface ServerNodeView : UIView
@property (nonatomic, assign, readonly) ServerNodeState state;
@property (nonatomic, copy, readonly) NSString *serverName;
- (void)configureWithName:(NSString *)name ip:(NSString *)ip;
- (void)changeState:(ServerNodeState)state animated:(BOOL)animated;
@end

@interface ServerNodeView ()
@property (nonatomic, strong) UILabel *nameLabel;
@property (nonatomic, strong) UILabel *ipLabel;
@property (nonatomic, strong) UILabel *crownLabel;
@property (nonatomic, assign) ServerNodeState state;
@end

@implementation ServerNodeView

- (instancetype)initWithFrame:(CGRect)frame
{
    self = [super initWithFrame:frame];
    if (self) {
        self.backgroundColor = [UIColor whiteColor];
        self.layer.cornerRadius = 12.0;
        self.layer.borderWidth = 2.0;
        self.layer.borderColor = [UIColor systemGreenColor].CGColor;

        _nameLabel = [[UILabel alloc] initWithFrame:CGRectMake(0, 10, frame.size.width, 20)];
        _nameLabel.font = [UIFont boldSystemFontOfSize:14];
        _nameLabel.textAlignment = NSTextAlignmentCenter;
        [self addSubview:_nameLabel];

        _ipLabel = [[UILabel alloc] initWithFrame:CGRectMake(0, 32, frame.size.width, 16)];
        _ipLabel.font = [UIFont systemFontOfSize:11];
        _ipLabel.textAlignment = NSTextAlignmentCenter;
        _ipLabel.textColor = [UIColor secondaryLabelColor];
        [self addSubview:_ipLabel];

        _crownLabel = [[UILabel alloc] initWithFrame:CGRectMake(frame.size.width / 2.0 - 20, -22, 40, 30)];
        _crownLabel.text = @"👑";
        _crownLabel.font = [UIFont systemFontOfSize:24];
        _crownLabel.textAlignment = NSTextAlignmentCenter;
        _crownLabel.hidden = YES;
        [self addSubview:_crownLabel];
    }
    return self;
}

- (void)configureWithName:(NSString *)name ip:(NSString *)ip
{
    _serverName = [name copy];
    self.nameLabel.text = name;
    self.ipLabel.text = ip;
}

- (void)changeState:(ServerNodeState)state animated:(BOOL)animated
{
    if (_state == state) {
        return;
    }
    _state = state;
    if (animated) {
        [UIView animateWithDuration:0.25 animations:^{
            [self applyState:state];
        }];
    } else {
        [self applyState:state];
    }
}

- (void)applyState:(ServerNodeState)state
{
    switch (state) {
        case ServerNodeStateIdle:
            self.layer.borderColor = [UIColor systemGreenColor].CGColor;
            self.backgroundColor = [UIColor whiteColor];
            self.crownLabel.hidden = YES;
            break;
        case ServerNodeStateFighting:
            self.layer.borderColor = [UIColor systemRedColor].CGColor;
            self.backgroundColor = [UIColor systemPinkColor];
            self.crownLabel.hidden = YES;
            break;
        case ServerNodeStateDefeated:
            self.layer.borderColor = [UIColor systemGrayColor].CGColor;
            self.backgroundColor = [UIColor systemGray6Color];
            self.crownLabel.hidden = YES;
            break;
        case ServerNodeStateChampion:
            self.layer.borderColor = [UIColor systemOrangeColor].CGColor;
            self.backgroundColor = [UIColor systemYellowColor];
            self.crownLabel.hidden = NO;
            self.crownLabel.alpha = 0;
            self.crownLabel.transform = CGAffineTransformMakeTranslation(0, -20);
            [UIView animateWithDuration:0.5 delay:0 usingSpringWithDamping:0.5 initialSpringVelocity:0.8 options:0 animations:^{
                self.crownLabel.alpha = 1;
                self.crownLabel.transform = CGAffineTransformIdentity;
            } completion:nil];
            break;
    }
}

@end

typedef void (^ArenaCompletionBlock)(BOOL finished);

@interface ArenaManager : NSObject
@property (nonatomic, strong) NSArray<ServerNodeView *> *nodes;
@property (nonatomic, copy) ArenaCompletionBlock completion;
+ (instancetype)sharedManager;
- (void)startArenaWithNodes:(NSArray<ServerNodeView *> *)nodes completion:(ArenaCompletionBlock)completion;
@end

@implementation ArenaManager

+ (instancetype)sharedManager
{
    static ArenaManager *manager;
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        manager = [[ArenaManager alloc] init];
    });
    return manager;
}

- (void)startArenaWithNodes:(NSArray<ServerNodeView *> *)nodes completion:(ArenaCompletionBlock)completion
{
    self.nodes = nodes;
    self.completion = completion;
    NSInteger total = nodes.count;
    if (total == 0) {
        if (completion) {
            completion(NO);
        }
        return;
    }
    for (NSInteger i = 0; i < total; i++) {
        NSTimeInterval delay = i * 1.2;
        dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(delay * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
            ServerNodeView *node = nodes[i];
            BOOL isLast = (i == total - 1);
            [self playBattleAnimationForNode:node completion:^(BOOL finished) {
                if (isLast) {
                    [self playChampionAnimationForNode:node];
                    if (self.completion) {
                        self.completion(YES);
                    }
                }
            }];
        });
    }
}

- (void)playBattleAnimationForNode:(ServerNodeView *)node completion:(void (^)(BOOL finished))completion
{
    [node changeState:ServerNodeStateFighting animated:YES];

    CABasicAnimation *scaleAnim = [CABasicAnimation animationWithKeyPath:@"transform.scale"];
    scaleAnim.fromValue = @(1.0);
    scaleAnim.toValue = @(1.15);
    scaleAnim.duration = 0.2;
    scaleAnim.autoreverses = YES;
    scaleAnim.repeatCount = 2;

    CABasicAnimation *shakeAnim = [CABasicAnimation animationWithKeyPath:@"transform.rotation"];
    shakeAnim.fromValue = @(-0.08);
    shakeAnim.toValue = @(0.08);
    shakeAnim.duration = 0.1;
    shakeAnim.autoreverses = YES;
    shakeAnim.repeatCount = 6;

    CAAnimationGroup *group = [CAAnimationGroup animation];
    group.animations = @[scaleAnim, shakeAnim];
    group.duration = 0.6;
    group.removedOnCompletion = NO;
    group.fillMode = kCAFillModeForwards;
    group.timingFunction = [CAMediaTimingFunction functionWithName:kCAMediaTimingFunctionEaseInEaseOut];

    [CATransaction begin];
    [CATransaction setCompletionBlock:^{
        [node.layer removeAllAnimations];
        [UIView animateWithDuration:0.4 animations:^{
            node.transform = CGAffineTransformMakeScale(0.1, 0.1);
            node.alpha = 0.3;
        } completion:^(BOOL finished) {
            [node changeState:ServerNodeStateDefeated animated:NO];
            if (completion) {
                completion(finished);
            }
        }];
    }];
    [node.layer addAnimation:group forKey:@"battleAnimation"];
    [CATransaction commit];
}

- (void)playChampionAnimationForNode:(ServerNodeView *)node
{
    [node.layer removeAllAnimations];
    node.transform = CGAffineTransformIdentity;
    node.alpha = 1.0;
    [node changeState:ServerNodeStateChampion animated:YES];

    CAKeyframeAnimation *bounceAnim = [CAKeyframeAnimation animationWithKeyPath:@"transform.scale"];
    bounceAnim.values = @[@(1.0), @(1.3), @(0.95), @(1.15), @(1.0)];
    bounceAnim.keyTimes = @[@(0.0), @(0.25), @(0.5), @(0.75), @(1.0)];
    bounceAnim.duration = 0.8;
    bounceAnim.removedOnCompletion = NO;
    bounceAnim.fillMode = kCAFillModeForwards;
    [node.layer addAnimation:bounceAnim forKey:@"championBounce"];

    [self showConfettiAtPoint:node.center inView:node.superview];
}

- (void)showConfettiAtPoint:(CGPoint)point inView:(UIView *)view
{
    CAEmitterLayer *emitter = [CAEmitterLayer layer];
    emitter.emitterPosition = point;
    emitter.emitterShape = kCAEmitterLayerPoint;
    emitter.emitterSize = CGSizeMake(4, 4);

    CAEmitterCell *cell = [CAEmitterCell emitterCell];
    cell.birthRate = 30;
    cell.lifetime = 2.0;
    cell.velocity = 80;
    cell.velocityRange = 30;
    cell.emissionRange = M_PI * 2;
    cell.scale = 0.08;
    cell.scaleRange = 0.04;
    cell.color = [UIColor systemOrangeColor].CGColor;
    emitter.emitterCells = @[cell];
    [view.layer addSublayer:emitter];

    dispatch_after(dispatch_time(DISPATCH_TIME_NOW, (int64_t)(2.0 * NSEC_PER_SEC)), dispatch_get_main_queue(), ^{
        [emitter removeFromSuperlayer];
    });
}

@end

@interface ViewController : UIViewController
@property (nonatomic, strong) NSMutableArray<ServerNodeView *> *nodeViews;
@property (nonatomic, strong) UIButton *startButton;
@property (nonatomic, assign) BOOL arenaRunning;
@end

@implementation ViewController

- (void)viewDidLoad
{
    [super viewDidLoad];
    self.view.backgroundColor = [UIColor systemBackgroundColor];
    self.nodeViews = [NSMutableArray array];
    [self setupTitle];
    [self setupNodes];
    [self setupStartButton];
}

- (void)setupTitle
{
    UILabel *titleLabel = [[UILabel alloc] initWithFrame:CGRectMake(0, 80, self.view.bounds.size.width, 44)];
    titleLabel.text = @"Server Arena";
    titleLabel.font = [UIFont boldSystemFontOfSize:22];
    titleLabel.textAlignment = NSTextAlignmentCenter;
    [self.view addSubview:titleLabel];
}

- (void)setupNodes
{
    NSArray *serverInfos = @[
        @{@"name": @"web-server-01", @"ip": @"10.0.0.11"},
        @{@"name": @"web-server-02", @"ip": @"10.0.0.12"},
        @{@"name": @"api-server-01", @"ip": @"10.0.0.21"},
        @{@"name": @"db-server-01", @"ip": @"10.0.0.31"},
        @{@"name": @"cache-server-01", @"ip": @"10.0.0.41"},
        @{@"name": @"gateway-server-01", @"ip": @"10.0.0.51"}
    ];
    CGFloat viewWidth = 110;
    CGFloat viewHeight = 70;
    CGFloat spacingX = 20;
    CGFloat spacingY = 20;
    CGFloat totalWidth = viewWidth * 3 + spacingX * 2;
    CGFloat startX = (self.view.bounds.size.width - totalWidth) / 2.0;
    CGFloat startY = 160;
    for (NSInteger i = 0; i < serverInfos.count; i++) {
        NSInteger col = i % 3;
        NSInteger row = i / 3;
        CGRect frame = CGRectMake(startX + col * (viewWidth + spacingX), startY + row * (viewHeight + spacingY), viewWidth, viewHeight);
        ServerNodeView *node = [[ServerNodeView alloc] initWithFrame:frame];
        NSDictionary *info = serverInfos[i];
        [node configureWithName:info[@"name"] ip:info[@"ip"]];
        [self.view addSubview:node];
        [self.nodeViews addObject:node];
    }
}

- (void)setupStartButton
{
    self.startButton = [UIButton buttonWithType:UIButtonTypeSystem];
    self.startButton.frame = CGRectMake(0, 0, 180, 48);
    self.startButton.center = CGPointMake(self.view.bounds.size.width / 2.0, 500);
    [self.startButton setTitle:@"Start" forState:UIControlStateNormal];
    self.startButton.backgroundColor = [UIColor systemBlueColor];
    self.startButton.layer.cornerRadius = 12;
    [self.startButton addTarget:self action:@selector(startArena) forControlEvents:UIControlEventTouchUpInside];
    [self.view addSubview:self.startButton];
}

- (void)startArena
{
    if (self.arenaRunning) {
        return;
    }
    self.arenaRunning = YES;
    __weak typeof(self) weakSelf = self;
    [[ArenaManager sharedManager] startArenaWithNodes:self.nodeViews completion:^(BOOL finished) {
        __strong typeof(self) strongSelf = weakSelf;
        if (!strongSelf) {
            return;
        }
        strongSelf.arenaRunning = NO;
    }];
}

@end
