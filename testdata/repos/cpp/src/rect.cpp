#include "rect.hpp"

namespace geo {

Rect::Rect(double w, double h) : w_(w), h_(h) {}

double Rect::area() const { return w_ * h_; }

std::string Rect::name() const { return "rect"; }

void Rect::scale(double factor) {
    scale(factor, factor);
}

void Rect::scale(double fx, double fy) {
    w_ *= fx;
    h_ *= fy;
}

}  // namespace geo
