//
//  DGActivityIndicatorThreeDotsAnimation.h
//  DGActivityIndicatorExample
//
//  Created by Nguyen Vinh on 6/15/15.
//  Copyright (c) 2015 Danil Gontovnik. All rights reserved.
//

#import "DGActivityIndicatorAnimation.h"

@interface DGActivityIndicatorThreeDotsAnimation : DGActivityIndicatorAnimation

@end
