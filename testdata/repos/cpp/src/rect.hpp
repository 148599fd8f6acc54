#ifndef GEO_RECT_HPP
#define GEO_RECT_HPP

#include "geo/shape.h"

namespace geo {

/// An axis-aligned rectangle.
class Rect : public Shape {
public:
    Rect(double w, double h);

    double area() const override;
    std::string name() const override;

    /// Scales both sides by factor.
    void scale(double factor);
    /// Scales the sides by their own factors.
    void scale(double fx, double fy);

    double width() const { return w_; }

private:
    double w_, h_;
};

}  // namespace geo

#endif
