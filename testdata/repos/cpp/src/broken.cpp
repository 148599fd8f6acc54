#include "geo/shape.h"

namespace geo {

/// Sums the areas of two shapes.
double sum_areas(const Shape& a, const Shape& b) {
    return a.area() + b.area();
}

class Broken : public Shape {
public:
    double area() const override { return 1.0 +; }
    std::string name( const override;
};

double after_broken(const Shape& s) {
    return sum_areas(s, s);
}

}  // namespace geo
