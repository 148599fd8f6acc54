#include "canvas.h"

#include <numeric>

using namespace geo;

namespace geo::render {

Canvas::Canvas() : last_circle_(nullptr) {}

void Canvas::add(std::unique_ptr<Shape> shape) {
    if (!shape) {
        return;
    }
    if (auto* c = dynamic_cast<Circle*>(shape.get())) {
        last_circle_ = c;
    }
    shapes_.push_back(std::move(shape));
}

double Canvas::covered() const {
    double sum = 0;
    for (const auto& s : shapes_) {
        sum += s->area();
    }
    return sum;
}

void Canvas::grow_circles() {
    if (last_circle_ != nullptr) {
        last_circle_->scale(2.0);
    }
    Circle unit(1.0);
    unit.scale(3.0);
    this->add(std::make_unique<Circle>(unit));
}

}  // namespace geo::render
