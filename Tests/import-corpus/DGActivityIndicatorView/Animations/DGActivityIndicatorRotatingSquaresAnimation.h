//
//  DGActivityIndicatorRotatingSquaresAnimation.h
//  DGActivityIndicatorExample
//
//  Created by Danil Gontovnik on 5/23/15.
//  Copyright (c) 2015 Danil Gontovnik. All rights reserved.
//

#import "DGActivityIndicatorAnimation.h"

@interface DGActivityIndicatorRotatingSquaresAnimation: DGActivityIndicatorAnimation

@end
