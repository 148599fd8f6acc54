#pragma once

#include <memory>
#include <string>

namespace geo {

/// A point in the plane.
struct Point {
    double x = 0;
    double y = 0;
};

/// Shape is what every drawable figure implements.
class Shape {
public:
    virtual ~Shape() = default;

    /// The area of the shape.
    virtual double area() const = 0;

    /// A short name for logs and exports.
    virtual std::string name() const = 0;

    /// Builds a shape from its kind ("circle", "rect") and size.
    static std::unique_ptr<Shape> make(const std::string& kind, double size);
};

/// A circle around a center.
class Circle : public Shape {
public:
    explicit Circle(double radius, Point center = Point());

    double area() const override;
    std::string name() const override { return "circle"; }

    /// The radius, never negative.
    double radius() const { return radius_; }

    /// Grows the circle by factor.
    void scale(double factor);

private:
    double radius_;
    Point center_;
};

}  // namespace geo
