#include <gtest/gtest.h>

#include "geo/shape.h"
#include "../src/rect.hpp"

namespace geo {

TEST(ShapeTest, CircleArea) {
    Circle c(1.0);
    EXPECT_NEAR(c.area(), 3.14159, 1e-5);
}

TEST(ShapeTest, RectScales) {
    Rect r(2.0, 3.0);
    r.scale(2.0);
    EXPECT_EQ(r.width(), 4.0);
}

TEST(ShapeTest, MakeRejectsUnknownKinds) {
    EXPECT_THROW(Shape::make("hexagon", 1.0), std::invalid_argument);
}

}  // namespace geo
