#include "geo/shape.h"

#include <cmath>
#include <stdexcept>

#include "rect.hpp"

namespace geo {

namespace {
constexpr double kPi = 3.14159265358979323846;

double square(double v) { return v * v; }
}  // namespace

Circle::Circle(double radius, Point center) : radius_(radius), center_(center) {
    if (radius < 0) {
        throw std::domain_error("negative radius");
    }
}

double Circle::area() const {
    return kPi * square(radius_);
}

void Circle::scale(double factor) {
    radius_ *= factor;
}

std::unique_ptr<Shape> Shape::make(const std::string& kind, double size) {
    if (kind == "circle") {
        return std::make_unique<Circle>(size);
    }
    if (kind == "rect") {
        return std::make_unique<Rect>(size, size);
    }
    throw std::invalid_argument("unknown shape: " + kind);
}

}  // namespace geo
