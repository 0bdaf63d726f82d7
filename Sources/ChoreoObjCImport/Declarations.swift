/// The declarations `#import <UIKit/UIKit.h>`, `<QuartzCore/QuartzCore.h>`,
/// `<Foundation/Foundation.h>` and `<CoreGraphics/CoreGraphics.h>` resolve to when libclang
/// parses a file here: there is no iOS SDK on this machine, so the importer carries the subset
/// of UIKit, Core Animation, Foundation and GCD it understands, as declarations only (Apple's
/// names and signatures; no implementation). Code using anything else still parses where the
/// missing names are not needed to read it; clang's own error says which name is missing.
enum Declarations {
    /// The headers, by the path an `#import` names.
    static let headers: [String: String] = [
        "UIKit/UIKit.h": "#import \"/choreo-sdk/choreo-sdk.h\"\n",
        "QuartzCore/QuartzCore.h": "#import \"/choreo-sdk/choreo-sdk.h\"\n",
        "Foundation/Foundation.h": "#import \"/choreo-sdk/choreo-sdk.h\"\n",
        "CoreGraphics/CoreGraphics.h": "#import \"/choreo-sdk/choreo-sdk.h\"\n",
        "UIKit/UIView.h": "#import \"/choreo-sdk/choreo-sdk.h\"\n",
        "choreo-sdk.h": sdk,
    ]

    static let sdk = #"""
        #pragma once
        typedef signed char BOOL;
        #define YES __objc_yes
        #define NO __objc_no
        #define true __objc_yes
        #define false __objc_no
        #define bool BOOL
        #define nil ((id)0)
        #define Nil ((Class)0)
        #define NULL ((void *)0)
        #define M_PI 3.14159265358979323846264338327950288
        #define M_PI_2 1.57079632679489661923132169163975144
        #define M_PI_4 0.785398163397448309615660845819875721
        #define M_1_PI 0.318309886183790671537767526745028724
        #define M_2_PI 0.636619772367581343075535053490057448
        #define M_E 2.71828182845904523536028747135266250
        #define M_SQRT2 1.41421356237309504880168872420969808
        #define M_SQRT1_2 0.707106781186547524400844362104849039
        #define M_LN2 0.693147180559945309417232121458176568
        #define M_LN10 2.30258509299404568401799145468436421
        #define FLT_EPSILON 1.19209290e-7F
        #define DBL_EPSILON 2.2204460492503131e-16
        #define CGFLOAT_MIN 2.2250738585072014e-308
        #define NSNotFound 9223372036854775807L
        #define HUGE_VALF __builtin_huge_valf()
        #define HUGE_VAL __builtin_huge_val()
        #define INFINITY __builtin_inff()
        #define MAXFLOAT 0x1.fffffep+127f
        #define HUGE MAXFLOAT
        #define FLT_MAX MAXFLOAT
        #define DBL_MAX 1.79769313486231570815e+308
        #define CGFLOAT_MAX 1.79769313486231570815e+308
        #define NS_ENUM(_type, _name) enum _name : _type _name; enum _name : _type
        #define NS_OPTIONS(_type, _name) enum _name : _type _name; enum _name : _type
        #define NS_ASSUME_NONNULL_BEGIN
        #define NS_ASSUME_NONNULL_END
        #define NSEC_PER_SEC 1000000000ull
        #define NSEC_PER_MSEC 1000000ull
        #define USEC_PER_SEC 1000000ull
        #define DISPATCH_TIME_NOW (0ull)
        #define DISPATCH_TIME_FOREVER (~0ull)
        #define IBAction void
        #define IBOutlet
        typedef double CGFloat;
        typedef long NSInteger;
        typedef unsigned long NSUInteger;
        typedef double NSTimeInterval;
        typedef double CFTimeInterval;
        typedef float Float;
        typedef unsigned long long uint64_t;
        typedef long long int64_t;
        typedef unsigned int uint32_t;
        typedef unsigned long size_t;
        typedef uint64_t dispatch_time_t;
        typedef struct CGColor *CGColorRef;
        typedef const struct CGPath *CGPathRef;
        typedef struct CGPath *CGMutablePathRef;

        struct CGPoint { CGFloat x; CGFloat y; };
        typedef struct CGPoint CGPoint;
        struct CGSize { CGFloat width; CGFloat height; };
        typedef struct CGSize CGSize;
        typedef struct CGSize CGVector;
        struct CGRect { CGPoint origin; CGSize size; };
        typedef struct CGRect CGRect;
        struct CGAffineTransform { CGFloat a, b, c, d, tx, ty; };
        typedef struct CGAffineTransform CGAffineTransform;
        struct CATransform3D {
            CGFloat m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44;
        };
        typedef struct CATransform3D CATransform3D;
        typedef struct UIEdgeInsets { CGFloat top, left, bottom, right; } UIEdgeInsets;

        extern const CGPoint CGPointZero;
        extern const CGSize CGSizeZero;
        extern const CGRect CGRectZero;
        extern const CGAffineTransform CGAffineTransformIdentity;
        extern const CATransform3D CATransform3DIdentity;
        CGPoint CGPointMake(CGFloat x, CGFloat y);
        CGSize CGSizeMake(CGFloat width, CGFloat height);
        CGRect CGRectMake(CGFloat x, CGFloat y, CGFloat width, CGFloat height);
        CGRect CGRectOffset(CGRect rect, CGFloat dx, CGFloat dy);
        CGRect CGRectInset(CGRect rect, CGFloat dx, CGFloat dy);
        CGFloat CGRectGetWidth(CGRect rect);
        CGFloat CGRectGetHeight(CGRect rect);
        CGFloat CGRectGetMidX(CGRect rect);
        CGFloat CGRectGetMidY(CGRect rect);
        CGFloat CGRectGetMinX(CGRect rect);
        CGFloat CGRectGetMinY(CGRect rect);
        CGFloat CGRectGetMaxX(CGRect rect);
        CGFloat CGRectGetMaxY(CGRect rect);
        UIEdgeInsets UIEdgeInsetsMake(CGFloat top, CGFloat left, CGFloat bottom, CGFloat right);
        CGAffineTransform CGAffineTransformMake(CGFloat a, CGFloat b, CGFloat c, CGFloat d, CGFloat tx, CGFloat ty);
        CGAffineTransform CGAffineTransformMakeScale(CGFloat sx, CGFloat sy);
        CGRect CGRectApplyAffineTransform(CGRect rect, CGAffineTransform t);
        typedef struct CGPath *CGMutablePathRef;
        CGMutablePathRef CGPathCreateMutable(void);
        CGMutablePathRef CGPathCreateMutableCopy(CGPathRef path);
        void CGPathRelease(CGPathRef path);
        CGPathRef CGPathRetain(CGPathRef path);
        void CGPathMoveToPoint(CGMutablePathRef path, const CGAffineTransform *m, CGFloat x, CGFloat y);
        void CGPathAddLineToPoint(CGMutablePathRef path, const CGAffineTransform *m, CGFloat x, CGFloat y);
        void CGPathAddQuadCurveToPoint(CGMutablePathRef path, const CGAffineTransform *m, CGFloat cpx, CGFloat cpy, CGFloat x, CGFloat y);
        void CGPathAddCurveToPoint(CGMutablePathRef path, const CGAffineTransform *m, CGFloat cp1x, CGFloat cp1y, CGFloat cp2x, CGFloat cp2y, CGFloat x, CGFloat y);
        void CGPathAddArc(CGMutablePathRef path, const CGAffineTransform *m, CGFloat x, CGFloat y, CGFloat radius, CGFloat startAngle, CGFloat endAngle, bool clockwise);
        void CGPathCloseSubpath(CGMutablePathRef path);
        CGAffineTransform CGAffineTransformMakeTranslation(CGFloat tx, CGFloat ty);
        CGAffineTransform CGAffineTransformMakeRotation(CGFloat angle);
        CGAffineTransform CGAffineTransformScale(CGAffineTransform t, CGFloat sx, CGFloat sy);
        CGAffineTransform CGAffineTransformTranslate(CGAffineTransform t, CGFloat tx, CGFloat ty);
        CGAffineTransform CGAffineTransformRotate(CGAffineTransform t, CGFloat angle);
        CGAffineTransform CGAffineTransformConcat(CGAffineTransform t1, CGAffineTransform t2);
        BOOL CGAffineTransformIsIdentity(CGAffineTransform t);
        CATransform3D CATransform3DMakeScale(CGFloat sx, CGFloat sy, CGFloat sz);
        CATransform3D CATransform3DMakeTranslation(CGFloat tx, CGFloat ty, CGFloat tz);
        CATransform3D CATransform3DMakeRotation(CGFloat angle, CGFloat x, CGFloat y, CGFloat z);
        CATransform3D CATransform3DScale(CATransform3D t, CGFloat sx, CGFloat sy, CGFloat sz);
        CATransform3D CATransform3DTranslate(CATransform3D t, CGFloat tx, CGFloat ty, CGFloat tz);
        CATransform3D CATransform3DRotate(CATransform3D t, CGFloat angle, CGFloat x, CGFloat y, CGFloat z);
        CATransform3D CATransform3DConcat(CATransform3D a, CATransform3D b);
        CATransform3D CATransform3DMakeAffineTransform(CGAffineTransform m);
        BOOL CATransform3DIsIdentity(CATransform3D t);
        CFTimeInterval CACurrentMediaTime(void);
        CGFloat CGColorGetAlpha(CGColorRef color);
        const CGFloat *CGColorGetComponents(CGColorRef color);
        size_t CGColorGetNumberOfComponents(CGColorRef color);
        CGColorRef CGColorCreateCopyWithAlpha(CGColorRef color, CGFloat alpha);
        bool CGColorEqualToColor(CGColorRef color1, CGColorRef color2);
        CGColorRef CGColorRetain(CGColorRef color);
        void CGColorRelease(CGColorRef color);
        bool CGRectIsEmpty(CGRect rect);
        bool CGRectIsNull(CGRect rect);
        bool CGRectEqualToRect(CGRect rect1, CGRect rect2);
        bool CGPointEqualToPoint(CGPoint point1, CGPoint point2);
        bool CGSizeEqualToSize(CGSize size1, CGSize size2);
        bool CGRectContainsPoint(CGRect rect, CGPoint point);
        bool CGRectContainsRect(CGRect rect1, CGRect rect2);
        bool CGRectIntersectsRect(CGRect rect1, CGRect rect2);
        CGRect CGRectUnion(CGRect r1, CGRect r2);
        CGRect CGRectIntersection(CGRect r1, CGRect r2);
        CGRect CGRectIntegral(CGRect rect);
        CGRect CGRectStandardize(CGRect rect);
        CGPoint CGPointApplyAffineTransform(CGPoint point, CGAffineTransform t);
        CGSize CGSizeApplyAffineTransform(CGSize size, CGAffineTransform t);
        CGAffineTransform CGAffineTransformInvert(CGAffineTransform t);
        bool CGAffineTransformEqualToTransform(CGAffineTransform t1, CGAffineTransform t2);
        extern const CGRect CGRectNull;
        double sin(double); double cos(double); double tan(double); double atan2(double, double);
        double sqrt(double); double pow(double, double); double fabs(double); double floor(double);
        double ceil(double); double round(double); double fmin(double, double); double fmax(double, double);
        float sinf(float); float cosf(float); float sqrtf(float); float fabsf(float);
        int abs(int);
        double MIN(double a, double b);
        double MAX(double a, double b);

        @class NSString, UIColor, CALayer, CAAnimation, UIView, NSArray, NSDictionary, UIFont;
        typedef struct objc_class *Class;
        typedef struct objc_selector *SEL;
        @class Protocol;
        @protocol NSObject
        @end
        __attribute__((objc_root_class))
        @interface NSObject <NSObject>
        + (instancetype)alloc;
        + (instancetype)new;
        - (instancetype)init;
        - (id)copy;
        - (id)mutableCopy;
        - (void)setValue:(id)value forKey:(NSString *)key;
        - (void)setValue:(id)value forKeyPath:(NSString *)keyPath;
        - (id)valueForKey:(NSString *)key;
        - (BOOL)isEqual:(id)object;
        - (void)performSelector:(SEL)selector withObject:(id)object afterDelay:(NSTimeInterval)delay;
        - (id)performSelector:(SEL)selector;
        - (id)performSelector:(SEL)selector withObject:(id)object;
        + (Class)class;
        - (Class)class;
        + (Class)superclass;
        - (Class)superclass;
        + (void)load;
        + (void)initialize;
        - (BOOL)isKindOfClass:(Class)aClass;
        - (BOOL)isMemberOfClass:(Class)aClass;
        - (BOOL)respondsToSelector:(SEL)aSelector;
        + (BOOL)instancesRespondToSelector:(SEL)aSelector;
        - (BOOL)conformsToProtocol:(Protocol *)aProtocol;
        + (BOOL)conformsToProtocol:(Protocol *)aProtocol;
        + (BOOL)isSubclassOfClass:(Class)aClass;
        @property (readonly, copy) NSString *description;
        @end
        @protocol NSCopying
        @end
        NSString *NSStringFromClass(Class aClass);
        Class NSClassFromString(NSString *aClassName);
        NSString *NSStringFromSelector(SEL aSelector);
        SEL NSSelectorFromString(NSString *aSelectorName);
        NSString *NSStringFromProtocol(Protocol *proto);
        Protocol *NSProtocolFromString(NSString *namestr);
        Class object_getClass(id obj);
        typedef struct _NSRange { NSUInteger location; NSUInteger length; } NSRange;
        NSRange NSMakeRange(NSUInteger location, NSUInteger length);
        typedef enum NSStringCompareOptions : NSUInteger {
            NSCaseInsensitiveSearch = 1, NSLiteralSearch = 2, NSBackwardsSearch = 4
        } NSStringCompareOptions;
        @interface NSString : NSObject <NSCopying>
        + (instancetype)stringWithFormat:(NSString *)format, ...;
        + (instancetype)stringWithString:(NSString *)string;
        - (instancetype)initWithString:(NSString *)string;
        - (NSUInteger)length;
        - (BOOL)isEqualToString:(NSString *)other;
        - (NSString *)stringByAppendingString:(NSString *)other;
        - (NSString *)stringByReplacingOccurrencesOfString:(NSString *)target withString:(NSString *)replacement;
        @property (readonly) double doubleValue;
        @property (readonly) float floatValue;
        @property (readonly) int intValue;
        @property (readonly) NSInteger integerValue;
        @property (readonly) int intValue;
        @property (readonly) BOOL boolValue;
        @property (readonly) BOOL boolValue;
        @end
        @interface NSMutableString : NSString
        - (NSUInteger)replaceOccurrencesOfString:(NSString *)target withString:(NSString *)replacement options:(NSStringCompareOptions)options range:(NSRange)range;
        - (void)appendString:(NSString *)string;
        - (void)appendFormat:(NSString *)format, ...;
        @end
        CGPoint CGPointFromString(NSString *string);
        CGSize CGSizeFromString(NSString *string);
        NSString *NSStringFromCGPoint(CGPoint point);
        @interface NSNumber : NSObject
        + (NSNumber *)numberWithFloat:(float)value;
        + (NSNumber *)numberWithDouble:(double)value;
        + (NSNumber *)numberWithInt:(int)value;
        + (NSNumber *)numberWithInteger:(NSInteger)value;
        + (NSNumber *)numberWithBool:(BOOL)value;
        @property (readonly) double doubleValue;
        @property (readonly) float floatValue;
        @property (readonly) NSInteger integerValue;
        @end
        @interface NSValue : NSObject
        + (NSValue *)valueWithCGPoint:(CGPoint)point;
        + (NSValue *)valueWithCGSize:(CGSize)size;
        + (NSValue *)valueWithCGRect:(CGRect)rect;
        + (NSValue *)valueWithCATransform3D:(CATransform3D)transform;
        + (NSValue *)valueWithCGAffineTransform:(CGAffineTransform)transform;
        @property (readonly) CGPoint CGPointValue;
        @property (readonly) CGRect CGRectValue;
        @end
        @interface NSArray<ObjectType> : NSObject
        + (instancetype)arrayWithObjects:(ObjectType)first, ...;
        + (instancetype)arrayWithObjects:(const ObjectType _Nonnull [_Nullable])objects count:(NSUInteger)count;
        + (instancetype)array;
        @property (readonly) NSUInteger count;
        @property (readonly) ObjectType firstObject;
        @property (readonly) ObjectType lastObject;
        - (ObjectType)objectAtIndex:(NSUInteger)index;
        - (ObjectType)objectAtIndexedSubscript:(NSUInteger)index;
        - (NSUInteger)indexOfObject:(ObjectType)object;
        - (BOOL)containsObject:(ObjectType)object;
        - (void)enumerateObjectsUsingBlock:(void (^)(ObjectType obj, NSUInteger idx, BOOL *stop))block;
        @end
        @interface NSMutableArray<ObjectType> : NSArray<ObjectType>
        + (instancetype)arrayWithCapacity:(NSUInteger)capacity;
        - (instancetype)initWithCapacity:(NSUInteger)capacity;
        - (void)addObject:(ObjectType)object;
        - (void)insertObject:(ObjectType)object atIndex:(NSUInteger)index;
        - (void)removeAllObjects;
        - (void)removeObject:(ObjectType)object;
        - (void)setObject:(ObjectType)object atIndexedSubscript:(NSUInteger)index;
        @end
        @interface NSDictionary<KeyType, ObjectType> : NSObject
        + (instancetype)dictionaryWithObjects:(const ObjectType _Nonnull [_Nullable])objects forKeys:(const KeyType _Nonnull [_Nullable])keys count:(NSUInteger)count;
        + (instancetype)dictionary;
        - (ObjectType)objectForKey:(KeyType)key;
        - (ObjectType)objectForKeyedSubscript:(KeyType)key;
        @property (readonly) NSUInteger count;
        @end
        @interface NSMutableDictionary<KeyType, ObjectType> : NSDictionary<KeyType, ObjectType>
        - (void)setObject:(ObjectType)object forKey:(KeyType)key;
        - (void)setObject:(ObjectType)object forKeyedSubscript:(KeyType)key;
        @end
        @interface NSNull : NSObject
        + (NSNull *)null;
        @end
        @interface NSDate : NSObject
        + (instancetype)date;
        - (NSTimeInterval)timeIntervalSinceDate:(NSDate *)other;
        - (NSTimeInterval)timeIntervalSinceNow;
        @property (readonly) NSTimeInterval timeIntervalSinceReferenceDate;
        @end
        @interface NSRunLoop : NSObject
        + (NSRunLoop *)mainRunLoop;
        + (NSRunLoop *)currentRunLoop;
        @end
        typedef NSString *NSRunLoopMode;
        extern NSRunLoopMode const NSDefaultRunLoopMode;
        extern NSRunLoopMode const NSRunLoopCommonModes;
        @interface NSTimer : NSObject
        + (NSTimer *)scheduledTimerWithTimeInterval:(NSTimeInterval)interval target:(id)target selector:(SEL)selector userInfo:(id)userInfo repeats:(BOOL)repeats;
        + (NSTimer *)scheduledTimerWithTimeInterval:(NSTimeInterval)interval repeats:(BOOL)repeats block:(void (^)(NSTimer *timer))block;
        + (NSTimer *)timerWithTimeInterval:(NSTimeInterval)interval target:(id)target selector:(SEL)selector userInfo:(id)userInfo repeats:(BOOL)repeats;
        - (void)invalidate;
        - (void)fire;
        @property (readonly, getter=isValid) BOOL valid;
        @property (readonly) id userInfo;
        @end
        @interface NSRunLoop (Timers)
        - (void)addTimer:(NSTimer *)timer forMode:(NSRunLoopMode)mode;
        @end
        typedef NSString *NSNotificationName;
        @interface NSNotification : NSObject
        @property (readonly, copy) NSNotificationName name;
        @property (readonly) id object;
        @property (readonly, copy) NSDictionary *userInfo;
        @end
        @interface NSNotificationCenter : NSObject
        + (NSNotificationCenter *)defaultCenter;
        - (void)addObserver:(id)observer selector:(SEL)selector name:(NSNotificationName)name object:(id)object;
        - (id)addObserverForName:(NSNotificationName)name object:(id)object queue:(id)queue usingBlock:(void (^)(NSNotification *note))block;
        - (void)postNotificationName:(NSNotificationName)name object:(id)object;
        - (void)postNotificationName:(NSNotificationName)name object:(id)object userInfo:(NSDictionary *)userInfo;
        - (void)removeObserver:(id)observer;
        - (void)removeObserver:(id)observer name:(NSNotificationName)name object:(id)object;
        @end
        @interface NSBundle : NSObject
        + (NSBundle *)mainBundle;
        + (NSBundle *)bundleForClass:(Class)aClass;
        + (instancetype)bundleWithURL:(id)url;
        - (NSString *)pathForResource:(NSString *)name ofType:(NSString *)ext;
        - (id)URLForResource:(NSString *)name withExtension:(NSString *)ext;
        @property (readonly, copy) NSString *bundleIdentifier;
        @end
        void NSLog(NSString *format, ...);

        typedef struct dispatch_queue_s *dispatch_queue_t;
        typedef void (^dispatch_block_t)(void);
        dispatch_queue_t dispatch_get_main_queue(void);
        dispatch_time_t dispatch_time(dispatch_time_t when, int64_t delta);
        void dispatch_after(dispatch_time_t when, dispatch_queue_t queue, dispatch_block_t block);
        void dispatch_async(dispatch_queue_t queue, dispatch_block_t block);
        typedef long dispatch_once_t;
        void dispatch_once(dispatch_once_t *predicate, dispatch_block_t block);

        @interface UIColor : NSObject
        + (UIColor *)colorWithRed:(CGFloat)red green:(CGFloat)green blue:(CGFloat)blue alpha:(CGFloat)alpha;
        + (UIColor *)colorWithWhite:(CGFloat)white alpha:(CGFloat)alpha;
        - (instancetype)initWithRed:(CGFloat)red green:(CGFloat)green blue:(CGFloat)blue alpha:(CGFloat)alpha;
        - (instancetype)initWithWhite:(CGFloat)white alpha:(CGFloat)alpha;
        - (UIColor *)colorWithAlphaComponent:(CGFloat)alpha;
        @property (readonly) CGColorRef CGColor;
        @property (class, readonly) UIColor *blackColor, *whiteColor, *clearColor, *redColor, *greenColor,
            *blueColor, *cyanColor, *magentaColor, *yellowColor, *orangeColor, *purpleColor, *brownColor,
            *grayColor, *darkGrayColor, *lightGrayColor, *systemRedColor, *systemOrangeColor,
            *systemYellowColor, *systemGreenColor, *systemMintColor, *systemTealColor, *systemCyanColor,
            *systemBlueColor, *systemIndigoColor, *systemPurpleColor, *systemPinkColor, *systemBrownColor,
            *systemGrayColor, *systemGray2Color, *systemGray3Color, *systemGray4Color, *systemGray5Color,
            *systemGray6Color, *systemBackgroundColor, *secondarySystemBackgroundColor, *labelColor,
            *secondaryLabelColor, *separatorColor;
        @end
        @interface UIFont : NSObject
        + (UIFont *)systemFontOfSize:(CGFloat)size;
        + (UIFont *)boldSystemFontOfSize:(CGFloat)size;
        + (UIFont *)fontWithName:(NSString *)name size:(CGFloat)size;
        @property (readonly) CGFloat pointSize;
        @end
        @interface UIImage : NSObject
        + (UIImage *)imageNamed:(NSString *)name;
        @property (readonly) CGImageRef CGImage;
        @end
        typedef struct CGImage *CGImageRef;

        typedef NSString *CAMediaTimingFunctionName;
        typedef NSString *CAMediaTimingFillMode;
        typedef NSString *CAAnimationCalculationMode;
        typedef NSString *CAAnimationRotationMode;
        typedef NSString *CATransitionType;
        typedef NSString *CATransitionSubtype;
        typedef NSString *CAEmitterLayerEmitterShape;
        typedef NSString *CAEmitterLayerEmitterMode;
        typedef NSString *CAEmitterLayerRenderMode;
        typedef NSString *CAShapeLayerLineCap;
        typedef NSString *CAShapeLayerLineJoin;
        typedef NSString *CATextLayerAlignmentMode;
        extern CAMediaTimingFunctionName const kCAMediaTimingFunctionLinear, kCAMediaTimingFunctionEaseIn,
            kCAMediaTimingFunctionEaseOut, kCAMediaTimingFunctionEaseInEaseOut, kCAMediaTimingFunctionDefault;
        extern CAMediaTimingFillMode const kCAFillModeForwards, kCAFillModeBackwards, kCAFillModeBoth,
            kCAFillModeRemoved;
        extern CAAnimationCalculationMode const kCAAnimationLinear, kCAAnimationDiscrete, kCAAnimationPaced,
            kCAAnimationCubic, kCAAnimationCubicPaced;
        extern CAAnimationRotationMode const kCAAnimationRotateAuto, kCAAnimationRotateAutoReverse;
        extern CATransitionType const kCATransitionFade, kCATransitionMoveIn, kCATransitionPush,
            kCATransitionReveal;
        extern CATransitionSubtype const kCATransitionFromRight, kCATransitionFromLeft, kCATransitionFromTop,
            kCATransitionFromBottom;
        extern CAEmitterLayerEmitterShape const kCAEmitterLayerPoint, kCAEmitterLayerLine,
            kCAEmitterLayerRectangle, kCAEmitterLayerCuboid, kCAEmitterLayerCircle, kCAEmitterLayerSphere;
        extern CAEmitterLayerEmitterMode const kCAEmitterLayerPoints, kCAEmitterLayerOutline,
            kCAEmitterLayerSurface, kCAEmitterLayerVolume;
        extern CAEmitterLayerRenderMode const kCAEmitterLayerUnordered, kCAEmitterLayerOldestFirst,
            kCAEmitterLayerOldestLast, kCAEmitterLayerBackToFront, kCAEmitterLayerAdditive;
        extern CAShapeLayerLineCap const kCALineCapButt, kCALineCapRound, kCALineCapSquare;
        extern CAShapeLayerLineJoin const kCALineJoinMiter, kCALineJoinRound, kCALineJoinBevel;
        extern CATextLayerAlignmentMode const kCAAlignmentNatural, kCAAlignmentLeft, kCAAlignmentRight,
            kCAAlignmentCenter, kCAAlignmentJustified;

        @interface CAMediaTimingFunction : NSObject
        + (instancetype)functionWithName:(CAMediaTimingFunctionName)name;
        + (instancetype)functionWithControlPoints:(float)c1x :(float)c1y :(float)c2x :(float)c2y;
        - (instancetype)initWithControlPoints:(float)c1x :(float)c1y :(float)c2x :(float)c2y;
        @end
        @protocol CAAnimationDelegate <NSObject>
        @optional
        - (void)animationDidStart:(CAAnimation *)anim;
        - (void)animationDidStop:(CAAnimation *)anim finished:(BOOL)flag;
        @end
        @interface CAAnimation : NSObject <NSCopying>
        + (instancetype)animation;
        @property (strong) CAMediaTimingFunction *timingFunction;
        @property (strong) id<CAAnimationDelegate> delegate;
        @property (getter=isRemovedOnCompletion) BOOL removedOnCompletion;
        @property CFTimeInterval beginTime;
        @property CFTimeInterval duration;
        @property float speed;
        @property CFTimeInterval timeOffset;
        @property float repeatCount;
        @property CFTimeInterval repeatDuration;
        @property BOOL autoreverses;
        @property (copy) CAMediaTimingFillMode fillMode;
        @end
        @interface CAPropertyAnimation : CAAnimation
        + (instancetype)animationWithKeyPath:(NSString *)path;
        @property (copy) NSString *keyPath;
        @property (getter=isAdditive) BOOL additive;
        @property (getter=isCumulative) BOOL cumulative;
        @end
        @interface CABasicAnimation : CAPropertyAnimation
        @property (strong) id fromValue;
        @property (strong) id toValue;
        @property (strong) id byValue;
        @end
        @interface CAKeyframeAnimation : CAPropertyAnimation
        @property (copy) NSArray *values;
        @property CGPathRef path;
        @property (copy) NSArray<NSNumber *> *keyTimes;
        @property (copy) NSArray<CAMediaTimingFunction *> *timingFunctions;
        @property (copy) CAAnimationCalculationMode calculationMode;
        @property (copy) CAAnimationRotationMode rotationMode;
        @property (copy) NSArray<NSNumber *> *tensionValues, *continuityValues, *biasValues;
        @end
        @interface CASpringAnimation : CABasicAnimation
        - (instancetype)initWithPerceptualDuration:(CFTimeInterval)perceptualDuration bounce:(CGFloat)bounce;
        @property CGFloat mass;
        @property CGFloat stiffness;
        @property CGFloat damping;
        @property CGFloat initialVelocity;
        @property BOOL allowsOverdamping;
        @property (readonly) CFTimeInterval settlingDuration;
        @end
        @interface CAAnimationGroup : CAAnimation
        @property (copy) NSArray<CAAnimation *> *animations;
        @end
        @interface CATransition : CAAnimation
        @property (copy) CATransitionType type;
        @property (copy) CATransitionSubtype subtype;
        @property float startProgress;
        @property float endProgress;
        @end
        @interface CATransaction : NSObject
        + (void)begin;
        + (void)commit;
        + (void)flush;
        + (CFTimeInterval)animationDuration;
        + (void)setAnimationDuration:(CFTimeInterval)duration;
        + (void)setAnimationTimingFunction:(CAMediaTimingFunction *)function;
        + (void)setDisableActions:(BOOL)flag;
        + (void)setCompletionBlock:(void (^)(void))block;
        + (BOOL)disableActions;
        @end
        @interface CADisplayLink : NSObject
        + (CADisplayLink *)displayLinkWithTarget:(id)target selector:(SEL)selector;
        - (void)addToRunLoop:(NSRunLoop *)runloop forMode:(NSRunLoopMode)mode;
        - (void)removeFromRunLoop:(NSRunLoop *)runloop forMode:(NSRunLoopMode)mode;
        - (void)invalidate;
        @property (readonly) CFTimeInterval timestamp;
        @property (readonly) CFTimeInterval duration;
        @property (readonly) CFTimeInterval targetTimestamp;
        @property (getter=isPaused) BOOL paused;
        @property NSInteger preferredFramesPerSecond;
        @end
        @protocol CAAction
        @end
        extern id const kCFNull;
        @interface CALayer : NSObject
        + (instancetype)layer;
        + (id)defaultValueForKey:(NSString *)key;
        + (BOOL)needsDisplayForKey:(NSString *)key;
        - (void)layoutSublayers;
        - (void)layoutIfNeeded;
        - (void)setNeedsLayout;
        - (void)setNeedsDisplay;
        - (void)display;
        @property CGRect frame;
        @property CGRect bounds;
        @property CGPoint position;
        @property CGPoint anchorPoint;
        @property CGFloat anchorPointZ;
        @property (strong) CALayer *mask;
        @property CGFloat zPosition;
        @property float opacity;
        @property (getter=isHidden) BOOL hidden;
        @property CATransform3D transform;
        @property CATransform3D sublayerTransform;
        @property CGColorRef backgroundColor;
        @property CGColorRef borderColor;
        @property CGFloat borderWidth;
        @property CGFloat cornerRadius;
        @property BOOL masksToBounds;
        @property CGColorRef shadowColor;
        @property float shadowOpacity;
        @property CGSize shadowOffset;
        @property CGFloat shadowRadius;
        @property float speed;
        @property CFTimeInterval timeOffset;
        @property CFTimeInterval beginTime;
        @property (strong) id contents;
        @property CGFloat contentsScale;
        @property BOOL shouldRasterize;
        @property CGFloat rasterizationScale;
        @property BOOL allowsEdgeAntialiasing;
        @property BOOL allowsGroupOpacity;
        @property BOOL drawsAsynchronously;
        @property BOOL needsDisplayOnBoundsChange;
        @property (getter=isDoubleSided) BOOL doubleSided;
        @property (copy) NSString *name;
        @property (readonly) CALayer *superlayer;
        @property (copy) NSArray<CALayer *> *sublayers;
        @property (strong) id delegate;
        - (instancetype)presentationLayer;
        - (instancetype)modelLayer;
        - (void)addSublayer:(CALayer *)layer;
        - (void)insertSublayer:(CALayer *)layer atIndex:(unsigned)index;
        - (void)insertSublayer:(CALayer *)layer below:(CALayer *)sibling;
        - (void)insertSublayer:(CALayer *)layer above:(CALayer *)sibling;
        - (void)removeFromSuperlayer;
        - (void)addAnimation:(CAAnimation *)anim forKey:(NSString *)key;
        - (void)removeAnimationForKey:(NSString *)key;
        - (void)removeAllAnimations;
        - (CAAnimation *)animationForKey:(NSString *)key;
        - (void)setAffineTransform:(CGAffineTransform)m;
        - (CGAffineTransform)affineTransform;
        @end
        @interface CAShapeLayer : CALayer
        @property CGPathRef path;
        @property CGColorRef fillColor;
        @property CGColorRef strokeColor;
        @property CGFloat lineWidth;
        @property CGFloat strokeStart;
        @property CGFloat strokeEnd;
        @property (copy) CAShapeLayerLineCap lineCap;
        @property (copy) CAShapeLayerLineJoin lineJoin;
        @end
        @interface CATextLayer : CALayer
        @property (copy) id string;
        @property CGFloat fontSize;
        @property CGColorRef foregroundColor;
        @property (copy) CATextLayerAlignmentMode alignmentMode;
        @end
        @interface CAReplicatorLayer : CALayer
        @property NSInteger instanceCount;
        @property CFTimeInterval instanceDelay;
        @property CATransform3D instanceTransform;
        @property CGColorRef instanceColor;
        @property float instanceRedOffset;
        @property float instanceGreenOffset;
        @property float instanceBlueOffset;
        @property float instanceAlphaOffset;
        @property BOOL preservesDepth;
        @end
        @interface CAGradientLayer : CALayer
        @property (copy) NSArray *colors;
        @property CGPoint startPoint;
        @property CGPoint endPoint;
        @end
        @interface CAEmitterCell : NSObject
        + (instancetype)emitterCell;
        @property (copy) NSString *name;
        @property float birthRate;
        @property float lifetime;
        @property float lifetimeRange;
        @property CGFloat velocity;
        @property CGFloat velocityRange;
        @property CGFloat xAcceleration, yAcceleration, zAcceleration;
        @property CGFloat emissionLatitude, emissionLongitude, emissionRange;
        @property CGFloat scale, scaleRange, scaleSpeed;
        @property CGFloat spin, spinRange;
        @property float alphaRange, alphaSpeed;
        @property CGColorRef color;
        @property (strong) id contents;
        @end
        @interface CAEmitterLayer : CALayer
        @property (copy) NSArray<CAEmitterCell *> *emitterCells;
        @property float birthRate;
        @property float lifetime;
        @property CGPoint emitterPosition;
        @property CGFloat emitterZPosition;
        @property CGSize emitterSize;
        @property (copy) CAEmitterLayerEmitterShape emitterShape;
        @property (copy) CAEmitterLayerEmitterMode emitterMode;
        @property (copy) CAEmitterLayerRenderMode renderMode;
        @property float velocity;
        @property float scale;
        @property float spin;
        @property unsigned int seed;
        @end

        @interface UIBezierPath : NSObject
        + (instancetype)bezierPath;
        + (instancetype)bezierPathWithRect:(CGRect)rect;
        + (instancetype)bezierPathWithOvalInRect:(CGRect)rect;
        + (instancetype)bezierPathWithRoundedRect:(CGRect)rect cornerRadius:(CGFloat)cornerRadius;
        + (instancetype)bezierPathWithArcCenter:(CGPoint)center radius:(CGFloat)radius startAngle:(CGFloat)startAngle endAngle:(CGFloat)endAngle clockwise:(BOOL)clockwise;
        - (void)moveToPoint:(CGPoint)point;
        - (void)addLineToPoint:(CGPoint)point;
        - (void)addQuadCurveToPoint:(CGPoint)endPoint controlPoint:(CGPoint)controlPoint;
        - (void)addCurveToPoint:(CGPoint)endPoint controlPoint1:(CGPoint)controlPoint1 controlPoint2:(CGPoint)controlPoint2;
        - (void)addArcWithCenter:(CGPoint)center radius:(CGFloat)radius startAngle:(CGFloat)startAngle endAngle:(CGFloat)endAngle clockwise:(BOOL)clockwise;
        - (void)appendPath:(UIBezierPath *)path;
        - (void)closePath;
        @property (readonly) CGPathRef CGPath;
        @end

        typedef enum UIViewAnimationOptions : NSUInteger {
            UIViewAnimationOptionLayoutSubviews = 1 << 0,
            UIViewAnimationOptionAllowUserInteraction = 1 << 1,
            UIViewAnimationOptionBeginFromCurrentState = 1 << 2,
            UIViewAnimationOptionRepeat = 1 << 3,
            UIViewAnimationOptionAutoreverse = 1 << 4,
            UIViewAnimationOptionOverrideInheritedDuration = 1 << 5,
            UIViewAnimationOptionOverrideInheritedCurve = 1 << 6,
            UIViewAnimationOptionAllowAnimatedContent = 1 << 7,
            UIViewAnimationOptionShowHideTransitionViews = 1 << 8,
            UIViewAnimationOptionOverrideInheritedOptions = 1 << 9,
            UIViewAnimationOptionCurveEaseInOut = 0 << 16,
            UIViewAnimationOptionCurveEaseIn = 1 << 16,
            UIViewAnimationOptionCurveEaseOut = 2 << 16,
            UIViewAnimationOptionCurveLinear = 3 << 16,
            UIViewAnimationOptionTransitionNone = 0 << 20,
            UIViewAnimationOptionTransitionFlipFromLeft = 1 << 20,
            UIViewAnimationOptionTransitionFlipFromRight = 2 << 20,
            UIViewAnimationOptionTransitionCurlUp = 3 << 20,
            UIViewAnimationOptionTransitionCurlDown = 4 << 20,
            UIViewAnimationOptionTransitionCrossDissolve = 5 << 20,
            UIViewAnimationOptionTransitionFlipFromTop = 6 << 20,
            UIViewAnimationOptionTransitionFlipFromBottom = 7 << 20,
        } UIViewAnimationOptions;
        typedef enum UIViewKeyframeAnimationOptions : NSUInteger {
            UIViewKeyframeAnimationOptionLayoutSubviews = 1 << 0,
            UIViewKeyframeAnimationOptionAllowUserInteraction = 1 << 1,
            UIViewKeyframeAnimationOptionBeginFromCurrentState = 1 << 2,
            UIViewKeyframeAnimationOptionRepeat = 1 << 3,
            UIViewKeyframeAnimationOptionAutoreverse = 1 << 4,
            UIViewKeyframeAnimationOptionCalculationModeLinear = 0 << 10,
            UIViewKeyframeAnimationOptionCalculationModeDiscrete = 1 << 10,
            UIViewKeyframeAnimationOptionCalculationModePaced = 2 << 10,
            UIViewKeyframeAnimationOptionCalculationModeCubic = 3 << 10,
            UIViewKeyframeAnimationOptionCalculationModeCubicPaced = 4 << 10,
        } UIViewKeyframeAnimationOptions;
        typedef enum NSTextAlignment : NSInteger {
            NSTextAlignmentLeft = 0, NSTextAlignmentCenter = 1, NSTextAlignmentRight = 2,
            NSTextAlignmentJustified = 3, NSTextAlignmentNatural = 4,
        } NSTextAlignment;
        typedef enum UIButtonType : NSInteger {
            UIButtonTypeCustom = 0, UIButtonTypeSystem = 1,
        } UIButtonType;
        typedef enum UIControlState : NSUInteger { UIControlStateNormal = 0 } UIControlState;
        typedef enum UIControlEvents : NSUInteger { UIControlEventTouchUpInside = 1 << 6 } UIControlEvents;

        @interface UIResponder : NSObject
        @end
        typedef enum NSLayoutAttribute : NSInteger {
            NSLayoutAttributeLeft = 1, NSLayoutAttributeRight, NSLayoutAttributeTop, NSLayoutAttributeBottom,
            NSLayoutAttributeLeading, NSLayoutAttributeTrailing, NSLayoutAttributeWidth, NSLayoutAttributeHeight,
            NSLayoutAttributeCenterX, NSLayoutAttributeCenterY, NSLayoutAttributeLastBaseline,
            NSLayoutAttributeFirstBaseline, NSLayoutAttributeNotAnAttribute = 0
        } NSLayoutAttribute;
        typedef enum NSLayoutRelation : NSInteger {
            NSLayoutRelationLessThanOrEqual = -1, NSLayoutRelationEqual = 0, NSLayoutRelationGreaterThanOrEqual = 1
        } NSLayoutRelation;
        typedef float UILayoutPriority;
        @interface NSLayoutConstraint : NSObject
        @property CGFloat constant;
        @property (getter=isActive) BOOL active;
        @property UILayoutPriority priority;
        @property (readonly) CGFloat multiplier;
        + (void)activateConstraints:(NSArray *)constraints;
        + (void)deactivateConstraints:(NSArray *)constraints;
        + (instancetype)constraintWithItem:(id)view1 attribute:(NSLayoutAttribute)attr1 relatedBy:(NSLayoutRelation)relation toItem:(id)view2 attribute:(NSLayoutAttribute)attr2 multiplier:(CGFloat)multiplier constant:(CGFloat)c;
        @end
        @interface NSLayoutAnchor : NSObject
        - (NSLayoutConstraint *)constraintEqualToAnchor:(NSLayoutAnchor *)anchor;
        - (NSLayoutConstraint *)constraintEqualToAnchor:(NSLayoutAnchor *)anchor constant:(CGFloat)c;
        - (NSLayoutConstraint *)constraintGreaterThanOrEqualToAnchor:(NSLayoutAnchor *)anchor;
        - (NSLayoutConstraint *)constraintGreaterThanOrEqualToAnchor:(NSLayoutAnchor *)anchor constant:(CGFloat)c;
        - (NSLayoutConstraint *)constraintLessThanOrEqualToAnchor:(NSLayoutAnchor *)anchor;
        - (NSLayoutConstraint *)constraintLessThanOrEqualToAnchor:(NSLayoutAnchor *)anchor constant:(CGFloat)c;
        @end
        @interface NSLayoutDimension : NSLayoutAnchor
        - (NSLayoutConstraint *)constraintEqualToConstant:(CGFloat)c;
        - (NSLayoutConstraint *)constraintGreaterThanOrEqualToConstant:(CGFloat)c;
        - (NSLayoutConstraint *)constraintLessThanOrEqualToConstant:(CGFloat)c;
        - (NSLayoutConstraint *)constraintEqualToAnchor:(NSLayoutDimension *)anchor multiplier:(CGFloat)m;
        - (NSLayoutConstraint *)constraintEqualToAnchor:(NSLayoutDimension *)anchor multiplier:(CGFloat)m constant:(CGFloat)c;
        @end
        @interface UILayoutGuide : NSObject
        @property (readonly) NSLayoutAnchor *leadingAnchor, *trailingAnchor, *leftAnchor, *rightAnchor, *topAnchor, *bottomAnchor, *centerXAnchor, *centerYAnchor;
        @property (readonly) NSLayoutDimension *widthAnchor, *heightAnchor;
        @end
        @interface UIView : UIResponder
        @property (readonly) NSLayoutAnchor *leadingAnchor, *trailingAnchor, *leftAnchor, *rightAnchor, *topAnchor, *bottomAnchor, *centerXAnchor, *centerYAnchor;
        @property (readonly) NSLayoutDimension *widthAnchor, *heightAnchor;
        @property (readonly) UILayoutGuide *safeAreaLayoutGuide, *layoutMarginsGuide, *readableContentGuide;
        - (void)addConstraint:(NSLayoutConstraint *)constraint;
        - (void)addConstraints:(NSArray *)constraints;
        - (void)removeConstraint:(NSLayoutConstraint *)constraint;
        - (void)removeConstraints:(NSArray *)constraints;
        + (void)animateWithDuration:(NSTimeInterval)duration delay:(NSTimeInterval)delay options:(UIViewAnimationOptions)options animations:(void (^)(void))animations completion:(void (^)(BOOL finished))completion;
        + (void)animateWithDuration:(NSTimeInterval)duration animations:(void (^)(void))animations completion:(void (^)(BOOL finished))completion;
        + (void)animateWithDuration:(NSTimeInterval)duration animations:(void (^)(void))animations;
        + (void)animateWithDuration:(NSTimeInterval)duration delay:(NSTimeInterval)delay usingSpringWithDamping:(CGFloat)dampingRatio initialSpringVelocity:(CGFloat)velocity options:(UIViewAnimationOptions)options animations:(void (^)(void))animations completion:(void (^)(BOOL finished))completion;
        + (void)animateKeyframesWithDuration:(NSTimeInterval)duration delay:(NSTimeInterval)delay options:(UIViewKeyframeAnimationOptions)options animations:(void (^)(void))animations completion:(void (^)(BOOL finished))completion;
        + (void)addKeyframeWithRelativeStartTime:(double)frameStartTime relativeDuration:(double)frameDuration animations:(void (^)(void))animations;
        + (void)transitionWithView:(UIView *)view duration:(NSTimeInterval)duration options:(UIViewAnimationOptions)options animations:(void (^)(void))animations completion:(void (^)(BOOL finished))completion;
        + (void)transitionFromView:(UIView *)fromView toView:(UIView *)toView duration:(NSTimeInterval)duration options:(UIViewAnimationOptions)options completion:(void (^)(BOOL finished))completion;
        + (void)performWithoutAnimation:(void (^)(void))actionsWithoutAnimation;
        + (void)setAnimationsEnabled:(BOOL)enabled;
        - (instancetype)initWithFrame:(CGRect)frame;
        @property CGRect frame;
        @property CGRect bounds;
        @property CGPoint center;
        @property CGAffineTransform transform;
        @property CGFloat alpha;
        @property (getter=isHidden) BOOL hidden;
        @property BOOL clipsToBounds;
        @property (strong) UIColor *backgroundColor;
        @property (strong) UIColor *tintColor;
        @property (readonly, strong) CALayer *layer;
        @property (readonly) UIView *superview;
        @property (readonly, copy) NSArray<UIView *> *subviews;
        @property NSInteger tag;
        @property (getter=isUserInteractionEnabled) BOOL userInteractionEnabled;
        @property BOOL translatesAutoresizingMaskIntoConstraints;
        - (void)addSubview:(UIView *)view;
        - (void)insertSubview:(UIView *)view atIndex:(NSInteger)index;
        - (void)insertSubview:(UIView *)view belowSubview:(UIView *)sibling;
        - (void)insertSubview:(UIView *)view aboveSubview:(UIView *)sibling;
        - (void)bringSubviewToFront:(UIView *)view;
        - (void)sendSubviewToBack:(UIView *)view;
        - (void)removeFromSuperview;
        - (void)layoutIfNeeded;
        - (void)setNeedsLayout;
        - (void)layoutSubviews;
        - (UIView *)snapshotViewAfterScreenUpdates:(BOOL)afterUpdates;
        @end
        @interface UILabel : UIView
        @property (copy) NSString *text;
        @property (strong) UIColor *textColor;
        @property (strong) UIFont *font;
        @property NSTextAlignment textAlignment;
        @property NSInteger numberOfLines;
        @end
        @interface UIControl : UIView
        - (void)addTarget:(id)target action:(SEL)action forControlEvents:(UIControlEvents)events;
        @end
        @interface UIButton : UIControl
        + (instancetype)buttonWithType:(UIButtonType)type;
        - (void)setTitle:(NSString *)title forState:(UIControlState)state;
        - (void)setTitleColor:(UIColor *)color forState:(UIControlState)state;
        @end
        @interface UIImageView : UIView
        - (instancetype)initWithImage:(UIImage *)image;
        @property (strong) UIImage *image;
        @end
        @interface UIScreen : NSObject
        + (UIScreen *)mainScreen;
        @property (readonly) CGRect bounds;
        @property (readonly) CGFloat scale;
        @end
        @class UINavigationController, UIViewController;
        @protocol UIViewControllerTransitioningDelegate;
        typedef enum UIModalPresentationStyle : NSInteger {
            UIModalPresentationFullScreen = 0, UIModalPresentationPageSheet, UIModalPresentationFormSheet,
            UIModalPresentationCurrentContext, UIModalPresentationCustom, UIModalPresentationOverFullScreen,
            UIModalPresentationAutomatic = -2,
        } UIModalPresentationStyle;
        @interface UIViewController : UIResponder
        @property (strong) UIView *view;
        @property (copy) NSString *title;
        @property (readonly) UINavigationController *navigationController;
        @property (weak) id<UIViewControllerTransitioningDelegate> transitioningDelegate;
        @property UIModalPresentationStyle modalPresentationStyle;
        @property (readonly) UIViewController *presentingViewController;
        @property (readonly) UIViewController *presentedViewController;
        - (void)viewDidLoad;
        - (void)viewWillAppear:(BOOL)animated;
        - (void)viewDidAppear:(BOOL)animated;
        - (void)viewWillDisappear:(BOOL)animated;
        - (void)viewDidDisappear:(BOOL)animated;
        - (void)presentViewController:(UIViewController *)viewController animated:(BOOL)flag completion:(void (^)(void))completion;
        - (void)dismissViewControllerAnimated:(BOOL)flag completion:(void (^)(void))completion;
        @end
        typedef enum UINavigationControllerOperation : NSInteger {
            UINavigationControllerOperationNone, UINavigationControllerOperationPush, UINavigationControllerOperationPop,
        } UINavigationControllerOperation;
        @protocol UINavigationControllerDelegate <NSObject>
        @end
        @interface UINavigationController : UIViewController
        @property (weak) id<UINavigationControllerDelegate> delegate;
        @property (readonly) UIViewController *topViewController;
        - (instancetype)initWithRootViewController:(UIViewController *)rootViewController;
        - (void)pushViewController:(UIViewController *)viewController animated:(BOOL)animated;
        - (UIViewController *)popViewControllerAnimated:(BOOL)animated;
        @end
        typedef NSString *UITransitionContextViewControllerKey;
        typedef NSString *UITransitionContextViewKey;
        extern UITransitionContextViewControllerKey const UITransitionContextFromViewControllerKey;
        extern UITransitionContextViewControllerKey const UITransitionContextToViewControllerKey;
        extern UITransitionContextViewKey const UITransitionContextFromViewKey;
        extern UITransitionContextViewKey const UITransitionContextToViewKey;
        @protocol UIViewControllerContextTransitioning <NSObject>
        @property (readonly) UIView *containerView;
        @property (readonly, getter=isAnimated) BOOL animated;
        @property (readonly, getter=isInteractive) BOOL interactive;
        @property (readonly) BOOL transitionWasCancelled;
        - (UIViewController *)viewControllerForKey:(UITransitionContextViewControllerKey)key;
        - (UIView *)viewForKey:(UITransitionContextViewKey)key;
        - (CGRect)initialFrameForViewController:(UIViewController *)vc;
        - (CGRect)finalFrameForViewController:(UIViewController *)vc;
        - (void)completeTransition:(BOOL)didComplete;
        - (void)updateInteractiveTransition:(CGFloat)percentComplete;
        - (void)finishInteractiveTransition;
        - (void)cancelInteractiveTransition;
        @end
        @protocol UIViewControllerAnimatedTransitioning <NSObject>
        - (NSTimeInterval)transitionDuration:(id<UIViewControllerContextTransitioning>)transitionContext;
        - (void)animateTransition:(id<UIViewControllerContextTransitioning>)transitionContext;
        @end
        @protocol UIViewControllerInteractiveTransitioning <NSObject>
        @end
        @protocol UIViewControllerTransitioningDelegate <NSObject>
        @end
        @interface UIPercentDrivenInteractiveTransition : NSObject <UIViewControllerInteractiveTransitioning>
        @property CGFloat completionSpeed;
        @property (readonly) CGFloat percentComplete;
        - (void)updateInteractiveTransition:(CGFloat)percentComplete;
        - (void)cancelInteractiveTransition;
        - (void)finishInteractiveTransition;
        - (void)pauseInteractiveTransition;
        @end
        typedef enum UIGestureRecognizerState : NSInteger {
            UIGestureRecognizerStatePossible, UIGestureRecognizerStateBegan, UIGestureRecognizerStateChanged,
            UIGestureRecognizerStateEnded, UIGestureRecognizerStateCancelled, UIGestureRecognizerStateFailed,
        } UIGestureRecognizerState;
        @interface UIGestureRecognizer : NSObject
        - (instancetype)initWithTarget:(id)target action:(SEL)action;
        @property (readonly) UIGestureRecognizerState state;
        @property (readonly) UIView *view;
        @end
        @interface UIPanGestureRecognizer : UIGestureRecognizer
        - (CGPoint)translationInView:(UIView *)view;
        - (CGPoint)velocityInView:(UIView *)view;
        - (void)setTranslation:(CGPoint)translation inView:(UIView *)view;
        @end
        @interface UIView (Gestures)
        - (void)addGestureRecognizer:(UIGestureRecognizer *)recognizer;
        @end
        @interface UIAccessibilityHelper : NSObject
        @end
        BOOL UIAccessibilityIsReduceMotionEnabled(void);
        """#
}
