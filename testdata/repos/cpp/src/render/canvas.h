#pragma once

#include <memory>
#include <vector>

#include "geo/shape.h"
#include "geo/registry.hpp"

namespace geo::render {

/// Canvas holds the shapes to draw, in order.
class Canvas {
public:
    Canvas();

    /// Adds a shape; the canvas owns it.
    void add(std::unique_ptr<Shape> shape);

    /// The area every shape covers, overlaps counted twice.
    double covered() const;

    /// Doubles every circle.
    void grow_circles();

    Registry<Shape>& named() { return named_; }

private:
    std::vector<std::unique_ptr<Shape>> shapes_;
    Registry<Shape> named_;
    Circle* last_circle_ = nullptr;
};

}  // namespace geo::render
